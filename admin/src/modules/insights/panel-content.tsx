import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Flex, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { panels, type PanelProps } from '../../extensions/kinds.ts';
import { loadAppExtensions } from '../../extensions/load-extensions.ts';
import { useRegistry } from '../../extensions/registry.ts';
import './built-in-panels.tsx';

/** A panel's type as the picker and the panel's header name it: translated for built-in ones. */
export function usePanelTypeName(): (type: string) => string {
  const { translate } = useTranslation();
  useRegistry(panels);
  return (type) => {
    const definition = panels.get(type);
    if (!definition) return type;
    return definition.builtIn ? translate(definition.name) : definition.name;
  };
}

/**
 * What a panel shows: its type's registry component (built-in or an extension's). A type no extension
 * registers, once the admin's extensions have loaded, says so instead.
 */
export function PanelContent(props: PanelProps) {
  const { translate } = useTranslation();
  useRegistry(panels);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    void loadAppExtensions().finally(() => setLoaded(true));
  }, []);
  const definition = panels.get(props.type);
  if (definition?.builtIn) return <definition.component {...props} />;
  // Built-in panels put the test id on what they draw; an extension's panel is wrapped in it.
  if (definition) {
    return (
      <div data-testid={props.testId} style={{ height: '100%', overflow: 'auto' }}>
        <definition.component {...props} />
      </div>
    );
  }
  return (
    <Flex align="center" justify="center" style={{ height: '100%' }}>
      {loaded ? (
        <Typography.Text type="secondary" data-testid={`${props.testId}-unknown`}>
          <QuestionCircleOutlined /> {translate('insights.unknownType', { type: props.type })}
        </Typography.Text>
      ) : (
        <Spin />
      )}
    </Flex>
  );
}
