import type { Locale, Messages } from '../../app/module.ts';

/** Texts of the interface and display catalogue: the item form's interfaces (the field drawer's texts are the data model's). */
export const interfaceMessages: Record<Locale, Messages> = {
  'en-US': {
    'content.m2a.collection': 'Collection…',
    'content.color.presets': 'Presets',
    'content.hash.set': 'Value set',
    'content.hash.change': 'Change',
    'content.links.open': 'Open',
    'content.repeater.empty': 'No rows yet',
    'content.repeater.add': 'Add row',
    'content.repeater.up': 'Move up',
    'content.repeater.down': 'Move down',
  },
  'pt-BR': {
    'content.m2a.collection': 'Coleção…',
    'content.color.presets': 'Predefinidas',
    'content.hash.set': 'Valor definido',
    'content.hash.change': 'Alterar',
    'content.links.open': 'Abrir',
    'content.repeater.empty': 'Nenhuma linha ainda',
    'content.repeater.add': 'Adicionar linha',
    'content.repeater.up': 'Mover para cima',
    'content.repeater.down': 'Mover para baixo',
  },
};
