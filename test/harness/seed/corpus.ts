// Word material for the mail seeder: people, companies, subjects and
// sentences. Deliberately heavy on non-ASCII (Latin diacritics, CJK,
// Cyrillic, Vietnamese, emoji) so that the client's RFC 2047 / charset
// handling is exercised by ordinary-looking mail. All domains are reserved
// (example.com/.org/.net, *.example, *.test) so nothing can ever be delivered.

import type { Prng } from './prng';

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'pl' | 'ja' | 'ru' | 'vi' | 'no';

export interface Person {
  name: string;
  email: string;
  /** Name used in greetings ("Hi José,"). */
  first: string;
  /** Preferred language of the person's mail. */
  lang: Lang;
  /** UTC offset in minutes used in the person's Date headers. */
  tz: number;
}

function p(name: string, email: string, first: string, lang: Lang, tz: number): Person {
  return { name, email, first, lang, tz };
}

export const PEOPLE: readonly Person[] = [
  p('José Muñoz', 'jose.munoz@acme.example.com', 'José', 'es', 60),
  p('Zoë Ødegård', 'zoe.odegard@fjord.example.org', 'Zoë', 'no', 60),
  p('Łukasz Żółć', 'lukasz.zolc@wisla.test', 'Łukasz', 'pl', 60),
  p('山田 太郎', 'taro.yamada@sakura.example.jp.test', '山田', 'ja', 540),
  p('Анна Петрова', 'anna.petrova@volga.test', 'Анна', 'ru', 180),
  p('Nguyễn Văn An', 'an.nguyen@mekong.test', 'An', 'vi', 420),
  p('François Lefèvre', 'f.lefevre@lumiere.example.net', 'François', 'fr', 60),
  p('Jürgen Groß', 'juergen.gross@alpen.example.com', 'Jürgen', 'de', 60),
  p('Björk Guðmundsdóttir', 'bjork@geysir.test', 'Björk', 'en', 0),
  p('Chloé Dubois', 'chloe.dubois@lumiere.example.net', 'Chloé', 'fr', 60),
  p('Søren Kierkegård', 'soren@fjord.example.org', 'Søren', 'en', 60),
  p('Małgorzata Wiśniewska', 'm.wisniewska@wisla.test', 'Małgosia', 'pl', 60),
  p('佐藤 花子', 'hanako.sato@sakura.example.jp.test', '佐藤', 'ja', 540),
  p('Дмитрий Иванов', 'd.ivanov@volga.test', 'Дмитрий', 'ru', 180),
  p('Trần Thị Mai', 'mai.tran@mekong.test', 'Mai', 'vi', 420),
  p('Renée Ç. Çelik', 'renee.celik@bosphorus.test', 'Renée', 'en', 180),
  p('Ana María Núñez', 'anamaria@acme.example.com', 'Ana María', 'es', -300),
  p('Siobhán O\'Brien', 'siobhan.obrien@shamrock.example.org', 'Siobhán', 'en', 0),
  p('Alice Johnson', 'alice.johnson@acme.example.com', 'Alice', 'en', -300),
  p('Bob Smith', 'bob.smith@globex.example.com', 'Bob', 'en', -480),
  p('Carol Williams', 'carol@initech.example.org', 'Carol', 'en', -360),
  p('David Brown', 'david.brown@globex.example.com', 'David', 'en', -480),
  p('Emily Davis', 'emily.davis@umbrella.example.net', 'Emily', 'en', 0),
  p('Frank Miller', 'frank@hooli.test', 'Frank', 'en', -480),
  p('Grace Lee', 'grace.lee@initech.example.org', 'Grace', 'en', -300),
  p('Henry Wilson', 'henry.wilson@umbrella.example.net', 'Henry', 'en', 0),
  p('Isabel Martin', 'isabel.martin@acme.example.com', 'Isabel', 'en', -300),
  p('Jack Taylor', 'jack@piedpiper.test', 'Jack', 'en', -480),
  p('Karen Thomas', 'karen.thomas@globex.example.com', 'Karen', 'en', -360),
  p('Liam Anderson', 'liam@hooli.test', 'Liam', 'en', -480),
  p('Mia Clark', 'mia.clark@piedpiper.test', 'Mia', 'en', -480),
  p('Noah Lewis', 'noah.lewis@initech.example.org', 'Noah', 'en', -300),
  p('Smith, John', 'john.smith@contoso.example.com', 'John', 'en', 0),
  p('Priya Raman', 'priya.raman@contoso.example.com', 'Priya', 'en', 330),
  p('Wei Zhang', 'wei.zhang@contoso.example.com', 'Wei', 'en', 480),
  p('Olivia Walker', 'olivia@umbrella.example.net', 'Olivia', 'en', 0),
];

export const NEWSLETTERS: readonly Person[] = [
  p('The Weekly Byte', 'news@weeklybyte.example.org', '', 'en', 0),
  p('Octo Digest', 'no-reply@digest.example.com', '', 'en', -480),
  p('Café Lumière', 'newsletter@cafe-lumiere.example.net', '', 'fr', 60),
  p('Łódź Tech Meetup', 'events@lodz-meetup.test', '', 'pl', 60),
  p('Cloud Status', 'no-reply@status.cloud.example.com', '', 'en', 0),
  p('Bücherwurm Newsletter', 'news@buecherwurm.example.com', '', 'de', 60),
  p('TravelDeals ✈️', 'deals@traveldeals.test', '', 'en', -300),
];

export const SPAMMERS: readonly Person[] = [
  p('Prize Department', 'winner@lucky-prize.test', '', 'en', 0),
  p('Account Security', 'security@acc0unt-verify.test', '', 'en', 0),
  p('Dr. Mbeki (Barrister)', 'barrister.mbeki@inheritance.test', '', 'en', 60),
  p('Лучшие предложения', 'promo@super-skidki.test', '', 'ru', 180),
  p('Pharmacy Online', 'sales@cheap-meds.test', '', 'en', -300),
];

export const PROJECTS = ['Atlas', 'Borealis', 'Kestrel', 'Nimbus', 'Orion', 'Quokka', 'Saffron', 'Tundra'] as const;
const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Contoso', 'Pied Piper'];

// Subject templates per language. {p}=project {m}=month {w}=weekday {c}=company {n}=number
const SUBJECTS: Record<Lang, readonly string[]> = {
  en: [
    '{p} kickoff', 'Q{q} budget review', 'Invoice #{n}', 'Lunch on {w}?', 'Quick question about {p}',
    'Notes from today\'s standup', '{c} contract renewal', 'Design review: {p} onboarding flow',
    '🚀 Launch plan', '🎉 Team offsite in {m}', '✅ Done: {p} migration', 'Travel itinerary for {m}',
    'Follow-up on the {p} integration timeline, open questions, and next steps for the {m} release',
    'Can you review my PR?', 'Re-scheduling our 1:1', 'Screenshots from the {p} demo', '{p} status report — week {k}',
    'Welcome to the team!', 'Hiring: senior engineer for {p}', 'Offsite photos 📸', 'Server maintenance window',
  ],
  de: ['Grüße aus München', 'Angebot für {c}', 'Termin am Donnerstag', 'Präsentation für die Geschäftsführung: Änderungen an der Roadmap für {m} und Überblick über offene Punkte', 'Rückfragen zur Rechnung #{n}'],
  fr: ['Réunion de l\'équipe', 'Compte rendu – {p}', 'Déjeuner vendredi ?', 'Révision du budget prévisionnel', 'Problème de connexion à l\'espace client'],
  es: ['Reunión del jueves', 'Presupuesto de {p} – versión final', '¿Comemos el {w}?', 'Información sobre la migración'],
  pl: ['Zażółć gęślą jaźń – notatki', 'Spotkanie w Łodzi', 'Faktura nr {n} – prośba o korektę'],
  ja: ['見積もりのご確認', '{p}の進捗について', '【重要】来月のシステムメンテナンスに関するお知らせと作業スケジュールのご確認のお願い', '会議の日程調整'],
  ru: ['Отчёт за месяц', 'Встреча по проекту {p}', 'Вопрос по договору №{n}'],
  vi: ['Cập nhật dự án {p}', 'Lịch họp tuần tới', 'Báo giá cho khách hàng'],
  no: ['Møte på fredag', 'Oppdatering: {p}', 'Sommerfest på kontoret 🌞'],
};

const NEWSLETTER_SUBJECTS = [
  'This week in {p}: 5 things you missed', 'Your {m} digest', '🔥 Top stories this week', 'Incident report: degraded API latency',
  'Nouveautés de la semaine ☕', 'Neuerscheinungen im {m} 📚', 'Meetup #{k}: zapraszamy!', 'Flash sale: 40% off flights to Zürich ✈️',
];

const SPAM_SUBJECTS = [
  'URGENT: Your account will be suspended', 'You have (1) unclaimed reward 🎁', 'Ваш выигрыш ждёт вас!!!',
  'Confidential business proposal', 'Cheap meds – no prescription needed', 'Re: your invoice is overdue',
];

/** Fill a subject template. Called once per thread, so a tiny replace loop is fine. */
function fill(t: string, rng: Prng): string {
  if (t.indexOf('{') < 0) return t;
  return t
    .replace('{p}', rng.pick(PROJECTS))
    .replace('{m}', rng.pick(MONTHS_EN))
    .replace('{w}', rng.pick(WEEKDAYS))
    .replace('{c}', rng.pick(COMPANIES))
    .replace('{q}', String(rng.int(1, 4)))
    .replace('{k}', String(rng.int(2, 52)))
    .replace('{n}', String(rng.int(10000, 99999)));
}

/** Every subject template, for tests that check decoded subjects against them. */
export const ALL_SUBJECT_TEMPLATES: readonly string[] = [...Object.values(SUBJECTS).flat(), ...NEWSLETTER_SUBJECTS, ...SPAM_SUBJECTS];

export function conversationSubject(rng: Prng, lang: Lang): string {
  return fill(rng.pick(SUBJECTS[lang]), rng);
}
export function newsletterSubject(rng: Prng): string {
  return fill(rng.pick(NEWSLETTER_SUBJECTS), rng);
}
export function spamSubject(rng: Prng): string {
  return rng.pick(SPAM_SUBJECTS);
}

// Sentences per language; paragraphs are 2–4 of these. Kept free of <, > and &
// so the HTML renderer needs no per-sentence escaping.
const SENTENCES: Record<Lang, readonly string[]> = {
  en: [
    'Thanks for sending this over so quickly.', 'I had a look at the numbers and they mostly line up with what we discussed last week.',
    'Could you double-check the totals in the second table before we send it to the client?', 'Let me know if Thursday afternoon works for a quick call.',
    'The staging environment is back up, so you should be able to test the new flow again.', 'I think we can drop the legacy export for now and revisit it in the next quarter.',
    'We are still waiting on legal to sign off on the updated terms.', 'Attached is the latest draft; comments welcome, especially on section three.',
    'The deadline moved to the end of the month, which gives us a bit more breathing room.', 'I spoke with the vendor this morning and they confirmed the delivery date.',
    'Sorry for the slow reply, this week has been a bit hectic.', 'Happy to pair on this if it helps.', 'Please keep this internal until the announcement goes out.',
    'The new dashboard loads in under a second now, which is a huge improvement.', 'We should probably loop in the security team before we change the login flow.',
    'I booked the large meeting room on the fourth floor.', 'Does anyone have the slides from the last all-hands?', 'No rush on this, next week is fine.',
    'The customer reported that search results are missing older messages.', 'I pushed a fix to the branch; it should be green in a few minutes.',
    'Budget-wise we are about 8% under plan, mostly thanks to the hosting changes.', 'Can we move the retro to Friday morning?',
    'Great work on the release, the feedback so far has been really positive.', 'Let us aim to have a first version ready by the 15th.',
  ],
  de: ['Vielen Dank für die schnelle Rückmeldung.', 'Anbei finden Sie die überarbeitete Präsentation.', 'Können wir den Termin auf nächste Woche verschieben?', 'Die Änderungen an der Straßenführung betreffen auch unser Büro.', 'Ich melde mich, sobald ich Neuigkeiten habe.', 'Schöne Grüße an das ganze Team in München!'],
  fr: ['Merci pour ton retour rapide.', 'Je te propose qu\'on en discute à la réunion de jeudi.', 'Le devis révisé est en pièce jointe.', 'Peux-tu vérifier les chiffres du deuxième trimestre ?', 'Bonne journée et à très bientôt.', 'L\'équipe a déjà commencé la migration des données.'],
  es: ['Gracias por la información.', 'Te envío el presupuesto actualizado mañana por la mañana.', '¿Podemos hablar el jueves después de comer?', 'La reunión con el cliente salió muy bien.', 'Un saludo a todo el equipo de diseño.'],
  pl: ['Dziękuję za szybką odpowiedź.', 'Przesyłam poprawioną wersję dokumentu.', 'Czy możemy przełożyć spotkanie na przyszły tydzień?', 'Zażółć gęślą jaźń – to tylko test polskich znaków.', 'Pozdrawiam serdecznie z Łodzi.'],
  ja: ['いつもお世話になっております。', '見積書を添付いたしますので、ご確認のほどよろしくお願いいたします。', '来週の会議の日程についてご相談させてください。', 'ご不明な点がございましたら、お気軽にお問い合わせください。', '引き続きよろしくお願いいたします。'],
  ru: ['Спасибо за быстрый ответ.', 'Отправляю обновлённую версию отчёта.', 'Давайте обсудим это на встрече в четверг.', 'Клиент подтвердил сроки поставки.', 'Хорошего дня!'],
  vi: ['Cảm ơn anh đã phản hồi nhanh.', 'Em gửi lại bản báo giá đã cập nhật.', 'Chúng ta có thể dời cuộc họp sang tuần sau không?', 'Khách hàng đã xác nhận tiến độ dự án.', 'Chúc anh một ngày tốt lành.'],
  no: ['Takk for rask tilbakemelding.', 'Vedlagt finner du oppdatert budsjett.', 'Kan vi flytte møtet til fredag?', 'Hilsen fra hele teamet på kontoret i Tromsø.'],
};

const GREETINGS: Record<Lang, readonly string[]> = {
  en: ['Hi {f},', 'Hello {f},', 'Hey {f},', 'Dear {f},', '{f},'],
  de: ['Hallo {f},', 'Liebe Grüße vorab, {f},'],
  fr: ['Bonjour {f},', 'Salut {f},'],
  es: ['Hola {f},', 'Buenos días, {f}:'],
  pl: ['Cześć {f},', 'Dzień dobry,'],
  ja: ['{f}様', '{f}さん'],
  ru: ['Здравствуйте, {f}!', 'Привет, {f}!'],
  vi: ['Chào {f},', 'Kính gửi {f},'],
  no: ['Hei {f},'],
};

const SIGNOFFS: Record<Lang, readonly string[]> = {
  en: ['Best,', 'Thanks,', 'Cheers,', 'Kind regards,', 'Talk soon,'],
  de: ['Viele Grüße,', 'Beste Grüße,'],
  fr: ['Cordialement,', 'Bien à toi,'],
  es: ['Un saludo,', 'Gracias,'],
  pl: ['Pozdrawiam,'],
  ja: ['よろしくお願いいたします。'],
  ru: ['С уважением,'],
  vi: ['Trân trọng,'],
  no: ['Hilsen,'],
};

export function greeting(rng: Prng, lang: Lang, first: string): string {
  const g = rng.pick(GREETINGS[lang]);
  return g.replace('{f}', first);
}
export function signoff(rng: Prng, lang: Lang): string {
  return rng.pick(SIGNOFFS[lang]);
}

/** One paragraph of 2–4 sentences; mostly the thread's language, sometimes English. */
export function paragraph(rng: Prng, lang: Lang): string {
  const pool = SENTENCES[lang];
  const n = rng.int(2, 4);
  let out = '';
  let prev = '';
  for (let i = 0; i < n; i++) {
    const s = lang !== 'en' && rng.chance(0.25) ? rng.pick(SENTENCES.en) : rng.pick(pool);
    if (s === prev) continue; // no "X. X." stutter
    out += (i === 0 ? '' : lang === 'ja' ? '' : ' ') + s;
    prev = s;
  }
  return out;
}

export function paragraphs(rng: Prng, lang: Lang, min: number, max: number): string[] {
  const n = rng.int(min, max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(paragraph(rng, lang));
  return out;
}

/** Short headlines for newsletter items. */
export const HEADLINES: readonly string[] = [
  'How we cut our build times in half', 'Ten tips for a calmer inbox', 'Release notes: faster search and dark mode',
  'Interview: the team behind the new mail engine', 'Café crème ou café noir ? Le grand débat', 'Die besten Bücher des Monats',
  'Spotkanie #42 – relacja i slajdy', 'Scheduled maintenance this weekend', 'Weekend deals: Zürich, Kraków and Tōkyō',
  'Why plain text email is making a comeback', 'A deep dive into IMAP IDLE', '5 keyboard shortcuts you should know',
];
