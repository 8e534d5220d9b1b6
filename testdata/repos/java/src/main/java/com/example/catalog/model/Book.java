package com.example.catalog.model;

/** A book in the catalog. */
public record Book(String isbn, String title, int pages, Genre genre) implements Describable {
    /** Genres form a shallow tree: every sub-genre has one parent. */
    public enum Genre {
        FICTION,
        FANTASY,
        SCIENCE,
        PHYSICS;

        /** The parent genre, or {@code null} for a top-level genre. */
        public Genre parent() {
            switch (this) {
                case FANTASY:
                    return FICTION;
                case PHYSICS:
                    return SCIENCE;
                default:
                    return null;
            }
        }

        /** Full path such as {@code FICTION/FANTASY}. */
        public String path() {
            return parent() == null ? name() : parentPath() + "/" + name();
        }

        /** Path of the parent genre, which must exist. */
        private String parentPath() {
            return parent().path();
        }
    }

    /** Returns for example {@code "Dune" (412 pages, FICTION/FANTASY)}. */
    @Override
    public String describe() {
        return String.format("\"%s\" (%d pages, %s)", title, pages, genre.path());
    }

    /** True if the book is in {@code g} or, optionally, in one of its sub-genres. */
    public boolean inGenre(Genre g, boolean includeSubGenres) {
        return genre == g || (includeSubGenres && genre.parent() == g);
    }
}
