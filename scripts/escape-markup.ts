/**
 * Text for HTML, XML or SVG: `&`, `<`, `>`, `"` and `'` as numeric character references, so it
 * can stand in element content and in quoted attributes alike (page heads, embed tags, the
 * embed card's SVG).
 */
export const escapeMarkup = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
