// model/: variables, equations, components with connectors, flattening with
// hierarchical names, alias elimination.
export * from './variable.ts';
export * from './component.ts';
export * from './flatten.ts';
export * from './alias.ts';
export * from './events.ts';
export * from './templates.ts';
