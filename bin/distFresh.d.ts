/** The compiled CLI entry, dist/cli/main.js. */
export declare const builtMain: string;
/** dist/ exists and no file under src/ is newer than its CLI entry. */
export declare function distIsFresh(): boolean;
/** The compiled prestart module, dist/cli/prestart.js. */
export declare const builtPrestart: string;
