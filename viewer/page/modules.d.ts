// The virtual module the viewer bundle generates from mechanisms/*.ts.
declare module 'kron:mechanisms' {
  const mechanisms: { name: string; module: { default?: (p: Record<string, number>) => unknown; parameters?: Record<string, number> } }[];
  export default mechanisms;
}
declare module '*.css';
