import { log } from 'directus:api';

// A Directus sandboxed hook: filter and action registered through the register object, log through directus:api.
export default ({ filter, action }) => {
  filter('sandboxed_notes.items.create', (payload) => {
    if (payload.title === 'refused') {
      const error = new Error('The sandboxed filter refuses this title.');
      error.status = 422;
      error.code = 'TITLE_REFUSED';
      throw error;
    }
    if (payload.title === 'crash') throw new Error('a secret detail of the crash');
    return { ...payload, title: String(payload.title).toUpperCase() };
  });
  action('sandboxed_notes.items.create', ({ key, payload, collection }) => {
    log(`created ${collection} ${key}: ${payload.title}`);
  });
};
