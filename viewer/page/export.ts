// Exporting the view: a PNG of the canvas (readable because the renderer
// preserves its drawing buffer), a WebM video via MediaRecorder, and the
// plotted signals as CSV.

function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function savePNG(canvas: HTMLCanvasElement, name: string): Promise<void> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? (download(blob, name), resolve()) : reject(new Error('the canvas gave no image'))), 'image/png'),
  );
}

/** start recording; the returned function stops and downloads the video */
export function recordWebM(canvas: HTMLCanvasElement, name: string): () => void {
  const type = ['video/webm;codecs=vp9', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t));
  if (!type) throw new Error('this browser cannot record WebM video');
  const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: type });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  recorder.onstop = () => download(new Blob(chunks, { type: 'video/webm' }), name);
  recorder.start();
  return () => recorder.stop();
}

/** the plotted signals (plots.ts csv()) as a CSV file */
export function saveCSV(text: string, name: string): void {
  download(new Blob([text], { type: 'text/csv' }), name);
}
