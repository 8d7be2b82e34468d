import { readFileSync } from 'node:fs';

export default ({ action }) => action('items.create', () => readFileSync('/etc/passwd'));
