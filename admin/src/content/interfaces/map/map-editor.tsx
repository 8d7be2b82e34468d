import { useTranslate } from '@refinedev/core';
import { Button, Flex, Segmented, Typography } from 'antd';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import type { InterfaceProps } from '../types.ts';
import { drawKindOf, position, positionsOf, shapeOf, withShape, type DrawKind, type Geometry } from './draw-geometry.ts';
import { addGeometryLayers, maplibregl, projectMapStyle } from './maplibre.ts';
import { startVertexEditor } from './vertex-editor.ts';

const EMPTY = { type: 'FeatureCollection' as const, features: [] };

function features(value: Geometry | null, draft: Geometry | null, vertices: ReadonlyArray<[number, number]>) {
  const list = [value, draft].filter((item): item is Geometry => item !== null).map((geometry) => ({ type: 'Feature' as const, properties: {}, geometry }));
  for (const vertex of vertices) list.push({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: vertex } });
  return { type: 'FeatureCollection' as const, features: list } as Parameters<GeoJSONSource['setData']>[0];
}

/**
 * The `map` interface of geometry fields (Directus's name): MapLibre GL on the project's first basemap, or
 * on a blank map that fetches nothing. A click places a point; lines and polygons take a click per vertex
 * and *Finish*; Multi… fields add each finished shape as one more part; *Move vertices* hands the value to
 * terra-draw's select mode (vertex-editor.ts) to drag points and vertices; *Clear* empties the field.
 */
export default function MapEditor({ field, value, onChange, disabled }: InterfaceProps<Geometry>) {
  const translate = useTranslate();
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const fixedKind = drawKindOf(field.type);
  const [kind, setKind] = useState<DrawKind>(fixedKind ?? 'Point');
  const [vertices, setVertices] = useState<Array<[number, number]>>([]);
  const [editing, setEditing] = useState(false);
  const [refused, setRefused] = useState(0);
  const current = (value ?? null) as Geometry | null;
  const state = useRef({ kind, current, disabled, onChange, editing });
  state.current = { kind, current, disabled, onChange, editing };

  useEffect(() => {
    let cancelled = false;
    let instance: MapLibreMap | null = null;
    void projectMapStyle().then(({ style, hasBasemap }) => {
      if (cancelled || !container.current) return;
      const created = new maplibregl.Map({ container: container.current, style, center: [0, 0], zoom: 2, attributionControl: hasBasemap ? {} : false });
      instance = created;
      map.current = created;
      created.on('load', () => {
        created.addSource('value', { type: 'geojson', data: EMPTY });
        addGeometryLayers(created, 'value');
        const points = positionsOf(state.current.current);
        if (points.length > 1) created.fitBounds(points.reduce((box, point) => box.extend(point), new maplibregl.LngLatBounds(points[0], points[0])), { padding: 40, maxZoom: 14, duration: 0 });
        else if (points.length === 1) created.jumpTo({ center: points[0], zoom: 8 });
        setReady(true);
      });
      created.on('click', (event) => {
        const { kind: drawing, current: now, disabled: off, onChange: change, editing: moving } = state.current;
        if (off || moving) return;
        const vertex = position(event.lngLat.lng, event.lngLat.lat);
        if (drawing === 'Point') {
          change?.(withShape(field.type, now, { type: 'Point', coordinates: vertex }));
          return;
        }
        setVertices((list) => [...list, vertex]);
      });
    });
    return () => {
      cancelled = true;
      instance?.remove();
      map.current = null;
    };
  }, [field.type]);

  const draft = shapeOf(kind, vertices);
  useEffect(() => {
    // While terra-draw edits the value it draws it; our layer would show the value before the drag.
    if (ready) (map.current?.getSource('value') as GeoJSONSource | undefined)?.setData(editing ? EMPTY : features(current, kind === 'Point' ? null : draft, vertices));
  }, [ready, current, draft, vertices, kind, editing]);

  useEffect(() => {
    const instance = map.current;
    const start = state.current.current;
    if (!editing || !ready || !instance || !start) return undefined;
    const editor = startVertexEditor(instance, start, (next) => state.current.onChange?.(next));
    setRefused(editor.refused);
    return () => editor.stop();
  }, [editing, ready]);

  const finish = () => {
    if (!draft) return;
    onChange?.(withShape(field.type, current, draft));
    setVertices([]);
  };

  return (
    <div data-testid={`map-${field.field}`}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        {fixedKind === null && (
          <Segmented
            size="small"
            value={kind}
            onChange={(next) => { setKind(next as DrawKind); setVertices([]); }}
            options={(['Point', 'LineString', 'Polygon'] as const).map((option) => ({ value: option, label: translate(`content.map.kind.${option}`) }))}
          />
        )}
        <Button size="small" type={editing ? 'primary' : 'default'} disabled={disabled || (current === null && !editing)} onClick={() => { setVertices([]); setEditing(!editing); }} data-testid="map-edit">
          {translate(editing ? 'content.map.doneEditing' : 'content.map.editVertices')}
        </Button>
        {kind !== 'Point' && !editing && (
          <Button size="small" type="primary" disabled={disabled || !draft} onClick={finish} data-testid="map-finish">
            {translate('content.map.finish')}
          </Button>
        )}
        {kind !== 'Point' && vertices.length > 0 && (
          <Button size="small" onClick={() => setVertices([])}>
            {translate('content.map.undoDraft')}
          </Button>
        )}
        <Button size="small" danger disabled={disabled || editing || (current === null && vertices.length === 0)} onClick={() => { setVertices([]); onChange?.(null); }} data-testid="map-clear">
          {translate('content.map.clear')}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {translate(editing ? 'content.map.helpEdit' : kind === 'Point' ? 'content.map.helpPoint' : 'content.map.helpShape')}
        </Typography.Text>
        {editing && refused > 0 && <Typography.Text type="warning" style={{ fontSize: 12 }}>{translate('content.map.refusedParts', { count: refused })}</Typography.Text>}
      </Flex>
      <div ref={container} style={{ height: 320, borderRadius: 6, overflow: 'hidden' }} data-testid="map-canvas" />
    </div>
  );
}
