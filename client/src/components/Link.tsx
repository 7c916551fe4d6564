import type { ComponentChildren, JSX } from "preact";
import { onLinkClick } from "../router";

export function Link(props: { href: string; class?: string; children: ComponentChildren } & Omit<JSX.HTMLAttributes<HTMLAnchorElement>, "href" | "class">): JSX.Element {
  const { href, children, ...rest } = props;
  return (
    <a {...rest} href={href} onClick={(e) => onLinkClick(e as unknown as MouseEvent, href)}>
      {children}
    </a>
  );
}
