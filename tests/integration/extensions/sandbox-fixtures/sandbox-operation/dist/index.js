// A Directus sandboxed operation: { id, handler } with the rendered options.
export default {
  id: 'sandbox-shout',
  handler: ({ text, times }) => ({ text: String(text).toUpperCase() + '!'.repeat(Number(times ?? 1)) }),
};
