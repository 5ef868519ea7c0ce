export function EditError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="field-error" role="alert">
      {error}
    </p>
  );
}
