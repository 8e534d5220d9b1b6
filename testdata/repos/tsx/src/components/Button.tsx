import { h, VNode } from '../jsx';

/** Properties of {@link Button}. */
export interface ButtonProps {
  label: string;
  primary?: boolean;
}

/** CSS classes of a button. */
function classNames(primary: boolean): string {
  return primary ? 'btn btn-primary' : 'btn';
}

/** A clickable button. */
export function Button(props: ButtonProps): VNode {
  return <button class={classNames(props.primary ?? false)}>{props.label}</button>;
}
