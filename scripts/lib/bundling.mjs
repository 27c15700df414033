// How the server is bundled (scripts/build.mjs), and so how the benchmark bundles the server it is compared with
// (bench/build-variants.mjs): one set of Rolldown options for both.

/** Input options: Node's built-ins stay imports; the syntax of the oldest Node the package supports. */
export const BUNDLE_INPUT = { platform: 'node', transform: { target: 'node22' }, logLevel: 'warn' };

/**
 * Output options. Start-up time goes into compiling the bundle: minified, there is half as much to read (names are
 * kept in the source maps of scripts/build.mjs: node --enable-source-maps dist/cli.js). ASCII only (other characters
 * as escapes): one dash in a file makes Node decode all of it from UTF-8 into a string of two bytes a character,
 * which V8 then reads more slowly too.
 */
export const BUNDLE_OUTPUT = {
  minify: true,
  charset: 'ascii',
  comments: { legal: false, jsdoc: false, annotation: false },
};
