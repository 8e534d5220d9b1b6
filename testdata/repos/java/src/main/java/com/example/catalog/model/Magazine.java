package com.example.catalog.model;

/** One issue of a magazine. */
public class Magazine implements Describable {
    private final String name;
    private final int issue;

    /** Creates issue {@code issue} of the magazine {@code name}. */
    public Magazine(String name, int issue) {
        this.name = name;
        this.issue = issue;
    }

    /** Returns for example {@code Byte #12}. */
    @Override
    public String describe() {
        return name + " #" + issue;
    }

    /** Debug form that wraps {@link #describe()}. */
    @Override
    public String toString() {
        return "Magazine[" + this.describe() + "]";
    }
}
