namespace Shop.Util;

/// <summary>Text helpers, imported with <c>using static</c>.</summary>
public static class Format
{
    // A line of a report: Report.Line hides it inside Report.
    public static string Line(string text)
    {
        return "* " + text;
    }

    /// <summary>Pads a label to a width.</summary>
    public static string Pad(string label, int width)
    {
        return label.PadRight(width);
    }
}
