import { useParams } from 'react-router';

export default function ItemEditPage() {
  const { collection, id } = useParams();
  return <h1>{collection} {id}</h1>;
}
