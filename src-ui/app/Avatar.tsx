/** A round initial on the colour of the avatar-hue rule (spec §9: sum of char codes mod 360). */
import { avatarHue } from '../../shared/avatar-hue';

export function initialOf(name: string, email: string): string {
  const source = name.trim() || email;
  const letter = source.match(/[\p{L}\p{N}]/u)?.[0] ?? '?';
  return letter.toUpperCase();
}

export function Avatar({ name, email, size = 32, hue }: { name: string; email: string; size?: number; hue?: number }) {
  const degrees = hue ?? avatarHue(email.toLowerCase());
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42), ['--avatar-hue' as string]: String(degrees) }}
    >
      {initialOf(name, email)}
    </span>
  );
}
