// React Native's color processing (`processColor`, `normalizeColor`), as a device does it: a color becomes an
// ARGB integer (iOS's form, unsigned) that the native side reads. Names, #rgb[a], #rrggbb[aa], rgb[a](), hsl[a]()
// and hwb() are understood; anything else is left as it is, for the daemon to refuse with a path.

const NAMES = {
  transparent: 0x00000000, aliceblue: 0xf0f8ffff, antiquewhite: 0xfaebd7ff, aqua: 0x00ffffff, aquamarine: 0x7fffd4ff,
  azure: 0xf0ffffff, beige: 0xf5f5dcff, bisque: 0xffe4c4ff, black: 0x000000ff, blanchedalmond: 0xffebcdff,
  blue: 0x0000ffff, blueviolet: 0x8a2be2ff, brown: 0xa52a2aff, burlywood: 0xdeb887ff, burntsienna: 0xea7e5dff,
  cadetblue: 0x5f9ea0ff, chartreuse: 0x7fff00ff, chocolate: 0xd2691eff, coral: 0xff7f50ff, cornflowerblue: 0x6495edff,
  cornsilk: 0xfff8dcff, crimson: 0xdc143cff, cyan: 0x00ffffff, darkblue: 0x00008bff, darkcyan: 0x008b8bff,
  darkgoldenrod: 0xb8860bff, darkgray: 0xa9a9a9ff, darkgreen: 0x006400ff, darkgrey: 0xa9a9a9ff, darkkhaki: 0xbdb76bff,
  darkmagenta: 0x8b008bff, darkolivegreen: 0x556b2fff, darkorange: 0xff8c00ff, darkorchid: 0x9932ccff,
  darkred: 0x8b0000ff, darksalmon: 0xe9967aff, darkseagreen: 0x8fbc8fff, darkslateblue: 0x483d8bff,
  darkslategray: 0x2f4f4fff, darkslategrey: 0x2f4f4fff, darkturquoise: 0x00ced1ff, darkviolet: 0x9400d3ff,
  deeppink: 0xff1493ff, deepskyblue: 0x00bfffff, dimgray: 0x696969ff, dimgrey: 0x696969ff, dodgerblue: 0x1e90ffff,
  firebrick: 0xb22222ff, floralwhite: 0xfffaf0ff, forestgreen: 0x228b22ff, fuchsia: 0xff00ffff, gainsboro: 0xdcdcdcff,
  ghostwhite: 0xf8f8ffff, gold: 0xffd700ff, goldenrod: 0xdaa520ff, gray: 0x808080ff, green: 0x008000ff,
  greenyellow: 0xadff2fff, grey: 0x808080ff, honeydew: 0xf0fff0ff, hotpink: 0xff69b4ff, indianred: 0xcd5c5cff,
  indigo: 0x4b0082ff, ivory: 0xfffff0ff, khaki: 0xf0e68cff, lavender: 0xe6e6faff, lavenderblush: 0xfff0f5ff,
  lawngreen: 0x7cfc00ff, lemonchiffon: 0xfffacdff, lightblue: 0xadd8e6ff, lightcoral: 0xf08080ff, lightcyan: 0xe0ffffff,
  lightgoldenrodyellow: 0xfafad2ff, lightgray: 0xd3d3d3ff, lightgreen: 0x90ee90ff, lightgrey: 0xd3d3d3ff,
  lightpink: 0xffb6c1ff, lightsalmon: 0xffa07aff, lightseagreen: 0x20b2aaff, lightskyblue: 0x87cefaff,
  lightslategray: 0x778899ff, lightslategrey: 0x778899ff, lightsteelblue: 0xb0c4deff, lightyellow: 0xffffe0ff,
  lime: 0x00ff00ff, limegreen: 0x32cd32ff, linen: 0xfaf0e6ff, magenta: 0xff00ffff, maroon: 0x800000ff,
  mediumaquamarine: 0x66cdaaff, mediumblue: 0x0000cdff, mediumorchid: 0xba55d3ff, mediumpurple: 0x9370dbff,
  mediumseagreen: 0x3cb371ff, mediumslateblue: 0x7b68eeff, mediumspringgreen: 0x00fa9aff,
  mediumturquoise: 0x48d1ccff, mediumvioletred: 0xc71585ff, midnightblue: 0x191970ff, mintcream: 0xf5fffaff,
  mistyrose: 0xffe4e1ff, moccasin: 0xffe4b5ff, navajowhite: 0xffdeadff, navy: 0x000080ff, oldlace: 0xfdf5e6ff,
  olive: 0x808000ff, olivedrab: 0x6b8e23ff, orange: 0xffa500ff, orangered: 0xff4500ff, orchid: 0xda70d6ff,
  palegoldenrod: 0xeee8aaff, palegreen: 0x98fb98ff, paleturquoise: 0xafeeeeff, palevioletred: 0xdb7093ff,
  papayawhip: 0xffefd5ff, peachpuff: 0xffdab9ff, peru: 0xcd853fff, pink: 0xffc0cbff, plum: 0xdda0ddff,
  powderblue: 0xb0e0e6ff, purple: 0x800080ff, rebeccapurple: 0x663399ff, red: 0xff0000ff, rosybrown: 0xbc8f8fff,
  royalblue: 0x4169e1ff, saddlebrown: 0x8b4513ff, salmon: 0xfa8072ff, sandybrown: 0xf4a460ff, seagreen: 0x2e8b57ff,
  seashell: 0xfff5eeff, sienna: 0xa0522dff, silver: 0xc0c0c0ff, skyblue: 0x87ceebff, slateblue: 0x6a5acdff,
  slategray: 0x708090ff, slategrey: 0x708090ff, snow: 0xfffafaff, springgreen: 0x00ff7fff, steelblue: 0x4682b4ff,
  tan: 0xd2b48cff, teal: 0x008080ff, thistle: 0xd8bfd8ff, tomato: 0xff6347ff, turquoise: 0x40e0d0ff,
  violet: 0xee82eeff, wheat: 0xf5deb3ff, white: 0xffffffff, whitesmoke: 0xf5f5f5ff, yellow: 0xffff00ff,
  yellowgreen: 0x9acd32ff,
};

const NUMBER = '[-+]?\\d*\\.?\\d+';
const PERCENT = `${NUMBER}%`;
const SEP = '\\s*[,\\s]\\s*';
const ALPHA_SEP = '\\s*[,/]\\s*';
const MATCHERS = {
  hex3: /^#([0-9a-fA-F]{3})$/,
  hex4: /^#([0-9a-fA-F]{4})$/,
  hex6: /^#([0-9a-fA-F]{6})$/,
  hex8: /^#([0-9a-fA-F]{8})$/,
  rgb: new RegExp(`^rgba?\\(\\s*(${NUMBER})${SEP}(${NUMBER})${SEP}(${NUMBER})\\s*(?:${ALPHA_SEP}(${NUMBER}%?))?\\s*\\)$`),
  hsl: new RegExp(`^hsla?\\(\\s*(${NUMBER})(?:deg)?${SEP}(${PERCENT})${SEP}(${PERCENT})\\s*(?:${ALPHA_SEP}(${NUMBER}%?))?\\s*\\)$`),
  hwb: new RegExp(`^hwb\\(\\s*(${NUMBER})(?:deg)?${SEP}(${PERCENT})${SEP}(${PERCENT})\\s*(?:${ALPHA_SEP}(${NUMBER}%?))?\\s*\\)$`),
};

const clamp255 = (n) => Math.max(0, Math.min(255, Math.round(n)));
const channel = (text) => clamp255(Number.parseFloat(text));
const unit = (text) => Math.max(0, Math.min(1, Number.parseFloat(text) / 100));
function alpha(text) {
  if (text === undefined) return 255;
  const n = Number.parseFloat(text);
  return clamp255((text.endsWith('%') ? n / 100 : n) * 255);
}
function hueToRgb(p, q, t) {
  if (t < 0) t += 1;
  if (t > 1) t -= 1;
  if (t < 1 / 6) return p + (q - p) * 6 * t;
  if (t < 1 / 2) return q;
  if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
  return p;
}
function hslToRgb(h, s, l) {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return [hueToRgb(p, q, h + 1 / 3), hueToRgb(p, q, h), hueToRgb(p, q, h - 1 / 3)].map((c) => clamp255(c * 255));
}
function hwbToRgb(h, w, b) {
  if (w + b >= 1) {
    const gray = clamp255((w / (w + b)) * 255);
    return [gray, gray, gray];
  }
  return hslToRgb(h, 1, 0.5).map((c) => clamp255(c * (1 - w - b) + w * 255));
}
const rgba = (r, g, b, a) => ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
const hue = (text) => (((Number.parseFloat(text) % 360) + 360) % 360) / 360;

/** A color as React Native's `normalizeColor` reads it: an RGBA integer, or null when it is not a color. */
export function normalizeColor(color) {
  if (typeof color === 'number') return color >>> 0 === color && color <= 0xffffffff ? color : null;
  if (typeof color !== 'string') return null;
  let m;
  if ((m = MATCHERS.hex6.exec(color))) return Number.parseInt(`${m[1]}ff`, 16) >>> 0;
  if (Object.hasOwn(NAMES, color.toLowerCase())) return NAMES[color.toLowerCase()];
  if ((m = MATCHERS.rgb.exec(color))) return rgba(channel(m[1]), channel(m[2]), channel(m[3]), alpha(m[4]));
  if ((m = MATCHERS.hex3.exec(color))) return Number.parseInt([...m[1]].map((c) => c + c).join('') + 'ff', 16) >>> 0;
  if ((m = MATCHERS.hex8.exec(color))) return Number.parseInt(m[1], 16) >>> 0;
  if ((m = MATCHERS.hex4.exec(color))) return Number.parseInt([...m[1]].map((c) => c + c).join(''), 16) >>> 0;
  if ((m = MATCHERS.hsl.exec(color))) return rgba(...hslToRgb(hue(m[1]), unit(m[2]), unit(m[3])), alpha(m[4]));
  if ((m = MATCHERS.hwb.exec(color))) return rgba(...hwbToRgb(hue(m[1]), unit(m[2]), unit(m[3])), alpha(m[4]));
  return null;
}

/**
 * React Native's `processColor` on iOS: RGBA to ARGB, unsigned. `null`/`undefined` stay as they are; a value
 * that is not a color is returned unchanged, so the daemon refuses it with the prop's path (a device shows a
 * red box instead).
 */
export function processColor(color) {
  if (color === undefined || color === null) return color;
  const normalized = normalizeColor(color);
  if (normalized === null) return color;
  return ((normalized << 24) | (normalized >>> 8)) >>> 0;
}
