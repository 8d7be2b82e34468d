import type { Locale, Messages } from '../../app/module.ts';

const enUS: Messages = {
  'flows.menu': 'Flows',
  'flows.title': 'Flows',
  'flows.subtitle': 'Automations started by an event, a schedule, a webhook or by hand.',
  'flows.create': 'Create flow',
  'flows.deleteConfirm': 'Delete this flow and its operations?',
  'flows.fields.name': 'Name',
  'flows.fields.icon': 'Icon',
  'flows.fields.color': 'Colour',
  'flows.fields.description': 'Description',
  'flows.fields.status': 'Active',
  'flows.fields.trigger': 'Trigger',
  'flows.fields.accountability': 'Activity and revisions',
  'flows.triggers.event': 'Event hook',
  'flows.triggers.schedule': 'Schedule (cron)',
  'flows.triggers.webhook': 'Webhook',
  'flows.triggers.manual': 'Manual',
  'flows.triggers.operation': 'Another flow',
  'flows.accountability.all': 'Activity and revisions',
  'flows.accountability.activity': 'Activity only',
  'flows.accountability.none': 'Nothing',
  'flows.errors.required': 'Required.',
};

const ptBR: Messages = {
  'flows.menu': 'Fluxos',
  'flows.title': 'Fluxos',
  'flows.subtitle': 'Automações iniciadas por um evento, um agendamento, um webhook ou à mão.',
  'flows.create': 'Criar fluxo',
  'flows.deleteConfirm': 'Excluir este fluxo e suas operações?',
  'flows.fields.name': 'Nome',
  'flows.fields.icon': 'Ícone',
  'flows.fields.color': 'Cor',
  'flows.fields.description': 'Descrição',
  'flows.fields.status': 'Ativo',
  'flows.fields.trigger': 'Gatilho',
  'flows.fields.accountability': 'Atividade e revisões',
  'flows.triggers.event': 'Evento',
  'flows.triggers.schedule': 'Agendamento (cron)',
  'flows.triggers.webhook': 'Webhook',
  'flows.triggers.manual': 'Manual',
  'flows.triggers.operation': 'Outro fluxo',
  'flows.accountability.all': 'Atividade e revisões',
  'flows.accountability.activity': 'Somente atividade',
  'flows.accountability.none': 'Nada',
  'flows.errors.required': 'Obrigatório.',
};

/** The flows screen's texts. */
export const flowsMessages: Record<Locale, Messages> = { 'en-US': enUS, 'pt-BR': ptBR };
