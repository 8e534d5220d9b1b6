package com.example.catalog.util;

/** Static string helpers shared by the catalog. */
public final class Strings {
    /** Default column width for padded output. */
    public static final int WIDTH = 40;

    private Strings() {
    }

    /** Pads {@code text} with spaces to {@code width} characters. */
    public static String pad(String text, int width) {
        return String.format("%-" + width + "s", text);
    }

    /** Upper-cases the first letter of {@code text}. */
    public static String title(String text) {
        if (text.isEmpty()) {
            return text;
        }
        return text.substring(0, 1).toUpperCase() + text.substring(1);
    }

    /** Breaks {@code text} into lines of at most {@code width} characters. */
    public static String wrap(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        return text.substring(0, width) + "\n" + wrap(text.substring(width), width);
    }
}
