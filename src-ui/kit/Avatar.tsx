/**
 * The one avatar: a person's initials on the colour of the avatar-hue rule (spec §9: sum of
 * char codes mod 360), the same in the thread list, the conversation, the recipient chips,
 * the sidebar and the account menu. Its look is inline, so it is the same in the views that
 * carry their own stylesheet (conversation, composer); the class is a hook for a context's
 * extras (the row's hover ring). The saturation and lightness follow the theme (--avatar-s,
 * --avatar-l on :root), with the light theme's values where no theme is set.
 */
import type { CSSProperties } from 'react';
import { avatarHue } from '../../shared/avatar-hue';
import { initials } from './person-name';

export function Avatar({ name, email, size = 32, hue }: { name: string; email: string; size?: number; hue?: number }) {
  const degrees = hue ?? avatarHue(email.toLowerCase());
  const style = {
    display: 'inline-grid',
    placeItems: 'center',
    flex: 'none',
    width: size,
    height: size,
    borderRadius: '50%',
    background: `hsl(${degrees} var(--avatar-s, 52%) var(--avatar-l, 44%))`,
    color: '#fff',
    fontSize: Math.round(size * 0.4),
    fontWeight: 600,
    lineHeight: 1,
    letterSpacing: '0.02em',
    userSelect: 'none',
    ['--avatar-hue' as string]: String(degrees),
  } as CSSProperties;
  return (
    <span className="avatar" aria-hidden="true" style={style}>
      {initials({ name, email })}
    </span>
  );
}
