package fmt

/** Text helpers. */
object Text {
  /** Pads `s` on the right to `width`, recursively. */
  def pad(s: String, width: Int): String =
    if (s.length >= width) s else pad(s + " ", width)
}
