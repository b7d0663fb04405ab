/**
 * Who fetched a page, for the analytics: a reader, a link preview (a chat or social app unfurling a
 * link someone shared: one preview usually means people about to see it), or another bot (search,
 * AI, monitors). Previews are bots to every other rule (they never create books or count clicks).
 */
export type Audience = 'reader' | 'preview' | 'bot';

const LINK_PREVIEWS =
  /facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|linkedinbot|skypeuripreview|pinterestbot|redditbot|embedly|iframely|vkshare|mastodon|bluesky|cardyb|snapchat|viber|line\/|kakaotalk|google-pagerenderer|microsoftpreview|bitlybot|tumblr|outlook|zoom/i;

export function audienceOf(userAgent: string | undefined, automated: boolean): Audience {
  if (!automated) return 'reader';
  return userAgent && LINK_PREVIEWS.test(userAgent) ? 'preview' : 'bot';
}
