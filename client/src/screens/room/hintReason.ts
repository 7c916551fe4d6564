// The one line that says why the computer suggests its hint, from the server's reason code.
import type { MessageKey, Translator } from "../../i18n";
import type { Hint } from "../../net/types";

const REASON_KEYS: Record<string, MessageKey> = {
  takes_free_boxes: "hint.takes_free_boxes",
  takes_all: "hint.takes_all",
  declines_to_keep_control: "hint.declines_to_keep_control",
  sacrifice_to_keep_control: "hint.sacrifice_to_keep_control",
  gives_fewest_boxes: "hint.gives_fewest_boxes",
  keeps_control: "hint.keeps_control",
  safe_line: "hint.safe_line",
  captures: "hint.captures",
  double_threat: "hint.double_threat",
  blocks_capture: "hint.blocks_capture",
  escapes: "hint.escapes",
};

/** Why the hinted move is good, in the reader's language ("" when there is no reason known). */
export function hintReason(t: Translator["t"], tn: Translator["tn"], hint: Hint): string {
  const key = hint.reason ? REASON_KEYS[hint.reason] : undefined;
  if (!key) return "";
  return t(key, { boxes: tn("boxes", hint.count), marks: tn("marks", hint.count) });
}
