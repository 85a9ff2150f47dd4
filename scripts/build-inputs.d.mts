// the types of scripts/build-inputs.mjs (a JavaScript module: the build runs it before tsx exists)
export declare const root: string;
export declare const STAMP: string;
/** where the stamp lives, relative to a checkout */
export declare const STAMP_PATH: string;
export declare function buildInputsHash(): string;
export declare function distIsCurrent(): boolean;
export declare function distIsFresh(at?: string): boolean;
