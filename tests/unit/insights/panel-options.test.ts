import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { validatePanelOptions } from '../../../server/insights/panel-options.ts';

function fieldOf(type: unknown, options: unknown): string | undefined {
  try {
    validatePanelOptions(type, options);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as InvalidPayloadError).extensions.field;
  }
}

const metric = { collection: 'articles', field: 'views', function: 'sum' };

describe('panel options', () => {
  it.each([
    ['metric', metric],
    ['metric', { ...metric, notation: 'compact', conditionalFormatting: [{ operator: '>=', value: 10, color: '#f00' }], minimumFractionDigits: 0 }],
    ['time-series', { collection: 'a', function: 'count', valueField: 'id', dateField: 'date', precision: 'week', range: '30 days', groupBy: 'status' }],
    ['bar-chart', { collection: 'a', xAxis: 'status', yAxis: 'id', function: 'count', horizontal: true }],
    ['pie-chart', { collection: 'a', column: 'status', function: 'count' }],
    ['list', { collection: 'a', displayTemplate: '{{title}} – {{author.name}}', sortDirection: 'asc' }],
    ['label', { text: '**hi**' }],
    ['meter', { ...metric, goal: 100, size: 'half' }],
    ['global-variable', { field: 'min_views', type: 'integer', defaultValue: 5 }],
    ['relational-variable', { field: 'writer', collection: 'authors', multiple: true }],
  ])('accepts a %s panel', (type, options) => {
    expect(fieldOf(type, options)).toBeUndefined();
  });

  it.each([
    ['Chart', metric, 'type'],
    ['bar chart', metric, 'type'],
    [null, metric, 'type'],
    ['metric', 'views', 'options'],
    ['metric', { ...metric, function: 'median' }, 'options.function'],
    ['metric', { field: 'views', function: 'sum' }, 'options.collection'],
    ['metric', { ...metric, field: 'views; drop' }, 'options.field'],
    ['metric', { ...metric, filter: 'status=published' }, 'options.filter'],
    ['metric', { ...metric, notation: 'scientific' }, 'options.notation'],
    ['metric', { ...metric, conditionalFormatting: [{ operator: '~', value: 1, color: 'red' }] }, 'options.conditionalFormatting[0].operator'],
    ['metric', { ...metric, maximumFractionDigits: 21 }, 'options.maximumFractionDigits'],
    ['metric', { ...metric, sortField: 'views' }, 'options.sortField'],
    ['time-series', { collection: 'a', function: 'count', valueField: 'id', dateField: 'date', precision: 'minute' }, 'options.precision'],
    ['time-series', { collection: 'a', function: 'count', valueField: 'id', dateField: 'date', range: 'forever' }, 'options.range'],
    ['time-series', { collection: 'a', function: 'count', valueField: 'id', dateField: 'date', groupBy: 'date' }, 'options.groupBy'],
    ['bar-chart', { collection: 'a', xAxis: 'status', function: 'count' }, 'options.yAxis'],
    ['pie-chart', { collection: 'a', column: 'status', function: 'sum' }, 'options.valueField'],
    ['list', { collection: 'a', displayTemplate: '{{title}}', limit: 101 }, 'options.limit'],
    ['list', { collection: 'a', displayTemplate: '{{ title; }}' }, 'options.displayTemplate'],
    ['label', {}, 'options.text'],
    ['meter', metric, 'options.goal'],
    ['global-variable', { field: 'Min', type: 'integer' }, 'options.field'],
    ['global-variable', { field: 'min', type: 'integer', defaultValue: 'five' }, 'options.defaultValue'],
    ['relational-variable', { field: 'writer', collection: 'authors', multiple: 'yes' }, 'options.multiple'],
  ])('refuses %s with %j naming %s', (type, options, field) => {
    expect(fieldOf(type, options)).toBe(field);
  });
});
