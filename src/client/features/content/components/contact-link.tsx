/** The operator's contact as a link when it is an e-mail address or a web address, as text otherwise. */
export function ContactLink({ contact }: { contact: string }) {
  const href = /^[^\s@]+@[^\s@]+$/.test(contact) ? `mailto:${contact}` : /^https?:\/\//.test(contact) ? contact : null;
  if (!href) return <strong>{contact}</strong>;
  return (
    <a href={href} className="font-medium text-brand-800 underline underline-offset-2 dark:text-brand-200">
      {contact}
    </a>
  );
}
