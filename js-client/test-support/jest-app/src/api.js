// The app's network module: tests mock it with jest.mock.
export async function fetchGreeting(name) {
  const response = await fetch(`https://example.invalid/greet?name=${encodeURIComponent(name)}`);
  return (await response.json()).greeting;
}
