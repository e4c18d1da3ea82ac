import { getAddress } from 'viem';
import { h } from './dom.ts';
import { shortAddress } from './format.ts';

/**
 * A creator's name linking to their profile page (/app/creator/<address>), wherever a page names
 * one (Discover, song and coin pages): the display name they set (PATCH /v1/user/profile), else
 * the short address; the full address is its title. `setName` fills a name read later.
 */
export function creatorLink(address: string, name: string | null = null): HTMLAnchorElement {
  const checksummed = getAddress(address);
  const link = h('a', { href: `/app/creator/${checksummed}`, 'data-link': true, class: 'creator-link', title: checksummed });
  setCreatorName(link, checksummed, name);
  return link;
}

export function setCreatorName(link: HTMLAnchorElement, address: string, name: string | null): void {
  link.textContent = name ?? shortAddress(address);
  if (name === null) link.removeAttribute('data-name');
  else link.setAttribute('data-name', name);
}
