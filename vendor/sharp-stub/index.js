// A stand-in for sharp (libvips image processing), which @xenova/transformers
// imports at load time for its image pipelines. git-mem only embeds text, and
// the real sharp neither installs offline (0.32 downloads libvips) nor bundles
// into the compiled binary (it require()s its native addon by a computed path).
// package.json points "sharp" here and overrides transformers' dependency with it.
'use strict';

function sharp() {
  throw new Error('image processing is not available in git-mem (sharp is stubbed out)');
}

module.exports = sharp;
module.exports.default = sharp;
