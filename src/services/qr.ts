import QRCode from 'qrcode';

/**
 * QR codes of our own links (never of user input beyond a slug or list id, so the content is always a
 * URL on this service). Medium error correction survives a smudged print; the quiet zone is the
 * standard four modules.
 */
const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: 'svg' });
}

/** `size` is the image's width in pixels (the modules scale to fit). */
export function qrPng(url: string, size = 512): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: 'png', width: size });
}
