import type { Address } from '../../shared/api/mail';
import { avatarColor, initials } from './message-format';

/** A round avatar with initials on the sender's hue (decorative: the name is next to it). */
export function Avatar({ address, size = 36 }: { address: Address | undefined; size?: number }) {
  return (
    <span className="tern-avatar" aria-hidden="true" style={{ background: avatarColor(address), width: size, height: size, fontSize: size * 0.4 }}>
      {initials(address)}
    </span>
  );
}
