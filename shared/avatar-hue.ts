/** Avatar hue (spec §9): the sum of the text's character codes modulo 360, in degrees. */
export function avatarHue(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  return sum % 360;
}
