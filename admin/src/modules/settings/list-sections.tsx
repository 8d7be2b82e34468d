import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Slider, Switch } from 'antd';
import { ASSET_FITS, ASSET_FORMATS, BASEMAP_TYPES, QUALITY, showsTileSize } from './settings-rules.ts';

function RemoveButton({ onClick }: { onClick(): void }) {
  const { translate } = useTranslation();
  return <Button type="text" danger icon={<MinusCircleOutlined />} onClick={onClick} aria-label={translate('shared.actions.remove')} />;
}

/** Asset presets (SPEC §3, §5): key, fit, width, height, quality, withoutEnlargement, format, transforms. */
export function AssetPresetsList() {
  const { translate } = useTranslation();
  return (
    <Form.List name="storage_asset_presets">
      {(entries, { add, remove }) => (
        <>
          {entries.map((entry) => (
            <Card key={entry.key} size="small" style={{ marginBottom: 12 }} extra={<RemoveButton onClick={() => remove(entry.name)} />} title={translate('settings.presets.preset')} data-testid={`preset-${entry.name}`}>
              <Row gutter={12}>
                <Col xs={24} md={8}>
                  <Form.Item name={[entry.name, 'key']} label={translate('settings.presets.key')} required>
                    <Input placeholder="thumbnail" data-testid={`preset-${entry.name}-key`} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name={[entry.name, 'fit']} label={translate('settings.presets.fit')} required>
                    <Select options={ASSET_FITS.map((fit) => ({ value: fit, label: translate(`settings.presets.fit.${fit}`) }))} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name={[entry.name, 'format']} label={translate('settings.presets.format')}>
                    <Select allowClear options={ASSET_FORMATS.map((format) => ({ value: format, label: format }))} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[entry.name, 'width']} label={translate('settings.presets.width')} required>
                    <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[entry.name, 'height']} label={translate('settings.presets.height')} required>
                    <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={18} md={8}>
                  <Form.Item name={[entry.name, 'quality']} label={translate('settings.presets.quality')} required>
                    <Slider min={QUALITY.min} max={QUALITY.max} step={QUALITY.step} />
                  </Form.Item>
                </Col>
                <Col xs={6} md={4}>
                  <Form.Item name={[entry.name, 'withoutEnlargement']} label={translate('settings.presets.noEnlarge')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name={[entry.name, 'transforms']} label={translate('settings.presets.transforms')} extra={translate('settings.presets.transformsHelp')}>
                <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} placeholder='[["blur", 4], ["rotate", 90]]' style={{ fontFamily: 'ui-monospace, monospace' }} />
              </Form.Item>
            </Card>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ fit: 'contain', quality: QUALITY.default, withoutEnlargement: false })} data-testid="preset-add">
            {translate('settings.presets.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** Map basemaps (SPEC §3, §5): name and url required; tileSize only when the type is not raster. */
export function BasemapsList() {
  const { translate } = useTranslation();
  return (
    <Form.List name="basemaps">
      {(entries, { add, remove }) => (
        <>
          {entries.map((entry) => (
            <Row key={entry.key} gutter={12} align="top">
              <Col xs={24} md={5}>
                <Form.Item name={[entry.name, 'name']} label={translate('settings.basemaps.name')} required>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={4}>
                <Form.Item name={[entry.name, 'type']} label={translate('settings.basemaps.type')}>
                  <Select options={BASEMAP_TYPES.map((type) => ({ value: type, label: type }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={7}>
                <Form.Item name={[entry.name, 'url']} label={translate('settings.basemaps.url')} required>
                  <Input placeholder="https://tile.example.com/{z}/{x}/{y}.png" />
                </Form.Item>
              </Col>
              <Form.Item noStyle shouldUpdate>
                {({ getFieldValue }) =>
                  showsTileSize(getFieldValue(['basemaps', entry.name, 'type'])) ? (
                    <Col xs={12} md={3}>
                      <Form.Item name={[entry.name, 'tileSize']} label={translate('settings.basemaps.tileSize')}>
                        <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                      </Form.Item>
                    </Col>
                  ) : null
                }
              </Form.Item>
              <Col xs={10} md={4}>
                <Form.Item name={[entry.name, 'attribution']} label={translate('settings.basemaps.attribution')}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={2} md={1} style={{ paddingTop: 30 }}>
                <RemoveButton onClick={() => remove(entry.name)} />
              </Col>
            </Row>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ type: 'raster' })}>
            {translate('settings.basemaps.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** Custom aspect ratios of the image editor (SPEC §3: text, value as float). */
export function AspectRatiosList() {
  const { translate } = useTranslation();
  return (
    <Form.List name="custom_aspect_ratios">
      {(entries, { add, remove }) => (
        <>
          {entries.map((entry) => (
            <Row key={entry.key} gutter={12}>
              <Col xs={12} md={10}>
                <Form.Item name={[entry.name, 'text']} label={translate('settings.ratios.text')} required>
                  <Input placeholder="16:9" />
                </Form.Item>
              </Col>
              <Col xs={10} md={10}>
                <Form.Item name={[entry.name, 'value']} label={translate('settings.ratios.value')} required>
                  <InputNumber min={0} step={0.01} style={{ width: '100%' }} placeholder="1.7778" />
                </Form.Item>
              </Col>
              <Col xs={2} md={4} style={{ paddingTop: 30 }}>
                <RemoveButton onClick={() => remove(entry.name)} />
              </Col>
            </Row>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
            {translate('settings.ratios.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}
