import { useParams } from 'react-router';

export default function ItemListPage() {
  const { collection } = useParams();
  return <h1>{collection}</h1>;
}
