package com.example.catalog.model;

/** Anything that can describe itself in one line. */
public interface Describable {
    /** Returns a one-line human readable description. */
    String describe();
}
