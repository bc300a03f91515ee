/** Brand id chosen by `build.mjs --brand=<id>`, replaced at build time. */
declare const __TERN_BRAND__: string;

/** Stylesheets are bundled by esbuild into the page's CSS file. */
declare module '*.css';
