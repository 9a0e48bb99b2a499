/** OpenPreview shows a file in the preview panel at a code point offset. */
export type OpenPreview = (uri: string, offset: number) => void;
