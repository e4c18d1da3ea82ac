/**
 * The `fc:miniapp` embed of a shared page: what a Farcaster client renders as a card with a button
 * that opens the page inside the client as a Mini App (and the legacy `fc:frame` name, which
 * clients still read). The JSON follows `@farcaster/miniapp-core`'s `miniAppEmbedNextSchema`:
 * version "1", a 3:2 https image (./embed-card.ts) and a `launch_miniapp` button.
 */
import { escapeMarkup } from './escape-markup.ts';

export interface MiniAppEmbed {
  /** Absolute https URL of the 3:2 picture. */
  imageUrl: string;
  /** At most 32 characters. */
  buttonTitle: string;
  /** The page the button opens. */
  url: string;
  /** The app's name in the client's launch screen. */
  appName: string;
}

export function miniAppEmbedJson(embed: MiniAppEmbed, actionType: 'launch_miniapp' | 'launch_frame' = 'launch_miniapp'): string {
  return JSON.stringify({
    version: '1',
    imageUrl: embed.imageUrl,
    aspectRatio: '3:2',
    button: { title: embed.buttonTitle.slice(0, 32), action: { type: actionType, name: embed.appName, url: embed.url } },
  });
}

/** The two meta tags, each with the JSON in its `content` attribute. */
export function miniAppEmbedTags(embed: MiniAppEmbed): string[] {
  return [
    `<meta name="fc:miniapp" content="${escapeMarkup(miniAppEmbedJson(embed))}">`,
    `<meta name="fc:frame" content="${escapeMarkup(miniAppEmbedJson(embed, 'launch_frame'))}">`,
  ];
}
