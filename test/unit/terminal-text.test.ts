import { describe, expect, it } from 'vitest';
import { forDestination, visible, withoutControls } from '../../src/core/terminal-text.ts';

describe('terminal text', () => {
  it('shows control characters instead of sending them, keeping tabs and line ends', () => {
    expect(visible('a\u001b]0;pwned\u0007b')).toBe('a^[]0;pwned^Gb');
    expect(visible('line\r\nnext\rover')).toBe('line\r\nnext^Mover');
    expect(visible('tab\there\n\u009b31m\u007f')).toBe('tab\there\n<U+009B>31m^?');
    expect(withoutControls('x\u001b[2Jy\u0007')).toBe('x[2Jy');
  });

  it('keeps a document exact unless it reaches a terminal', () => {
    expect(forDestination('a\u001b[2Jb', true)).toBe('a^[[2Jb');
    expect(forDestination('a\u001b[2Jb', false)).toBe('a\u001b[2Jb');
  });
});
