// The outputs vocabulary lives in the contract (pure, shared with the API schemas and the renderer).
export * from '../../contract/results/outputs.js';
