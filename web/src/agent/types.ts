/** OpenPreview shows a file in the preview panel at a code point offset; with query, find starts at that hit. */
export type OpenPreview = (uri: string, offset: number, query?: string) => void;
