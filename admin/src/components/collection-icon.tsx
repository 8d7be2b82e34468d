import {
  AppstoreOutlined,
  BookOutlined,
  CalendarOutlined,
  FileImageOutlined,
  FileTextOutlined,
  FolderOutlined,
  GlobalOutlined,
  ShoppingOutlined,
  StarOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  DatabaseOutlined,
  SettingOutlined,
  CommentOutlined,
  DashboardOutlined,
  BarChartOutlined,
  LineChartOutlined,
  PieChartOutlined,
  CheckOutlined,
  CloseOutlined,
} from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';

/** Icon names stored in `meta.icon` (Material-style names, as Directus uses) → antd icons. */
const ICONS: Record<string, ComponentType<{ style?: CSSProperties }>> = {
  article: FileTextOutlined,
  description: FileTextOutlined,
  book: BookOutlined,
  menu_book: BookOutlined,
  event: CalendarOutlined,
  calendar_today: CalendarOutlined,
  image: FileImageOutlined,
  photo: FileImageOutlined,
  folder: FolderOutlined,
  public: GlobalOutlined,
  language: GlobalOutlined,
  shopping_cart: ShoppingOutlined,
  store: ShoppingOutlined,
  star: StarOutlined,
  label: TagsOutlined,
  sell: TagsOutlined,
  group: TeamOutlined,
  people: TeamOutlined,
  person: UserOutlined,
  settings: SettingOutlined,
  comment: CommentOutlined,
  box: AppstoreOutlined,
  dashboard: DashboardOutlined,
  space_dashboard: DashboardOutlined,
  bar_chart: BarChartOutlined,
  insights: LineChartOutlined,
  show_chart: LineChartOutlined,
  pie_chart: PieChartOutlined,
  check: CheckOutlined,
  close: CloseOutlined,
};

/** The icon names the admin can draw (pickers offer these). */
export const ICON_NAMES = Object.keys(ICONS);

/** The icon of a collection: its `meta.icon`, a folder for folders, a database otherwise. */
export function CollectionIcon({ name, folder, color }: { name: string | null; folder?: boolean; color?: string | null }) {
  const Icon = (name && ICONS[name]) || (folder ? FolderOutlined : DatabaseOutlined);
  return <Icon style={color ? { color } : undefined} />;
}
