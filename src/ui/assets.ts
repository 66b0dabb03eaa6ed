/**
 * The page, its script and its style, embedded in the binary as text (Bun's
 * text loader): served as they are, nothing fetched from anywhere else.
 */
import page from './assets/index.html' with { type: 'text' };
import script from './assets/app.js' with { type: 'text' };
import style from './assets/app.css' with { type: 'text' };

export const PAGE = page;
export const SCRIPT = script;
export const STYLE = style;

export const ASSETS: Record<string, { type: string; body: string }> = {
  '/': { type: 'text/html; charset=utf-8', body: page },
  '/app.js': { type: 'text/javascript; charset=utf-8', body: script },
  '/app.css': { type: 'text/css; charset=utf-8', body: style },
};
