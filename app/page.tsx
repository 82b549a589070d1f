export default function Home() {
  return <main className="p-8">Browser Router</main>;
}
