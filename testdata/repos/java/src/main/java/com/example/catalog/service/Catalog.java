package com.example.catalog.service;

import static com.example.catalog.util.Strings.*;

import com.example.catalog.model.Book;
import com.example.catalog.model.Book.Genre;
import com.example.catalog.model.Magazine;
import java.util.ArrayList;
import java.util.List;

/** An in-memory catalog of books and magazines. */
public class Catalog {
    /** Most results a search returns. */
    public static final int MAX_RESULTS = 10;

    private final List<Book> books = new ArrayList<>();
    private final List<Magazine> magazines = new ArrayList<>();

    /** Adds a book. */
    public void addBook(Book book) {
        books.add(book);
    }

    /** Adds a magazine issue. */
    public void addMagazine(Magazine magazine) {
        magazines.add(magazine);
    }

    /** Books of {@code genre}, optionally with its sub-genres; at most {@link #MAX_RESULTS}. */
    public List<Book> byGenre(
            Genre genre,
            boolean includeSubGenres) {
        List<Book> result = new ArrayList<>();
        for (Book book : books) {
            if (book.inGenre(genre, includeSubGenres) && result.size() < MAX_RESULTS) {
                result.add(book);
            }
        }
        return result;
    }

    /** One padded line per item, books first. */
    public List<String> listing() {
        List<String> lines = new ArrayList<>();
        for (Book book : books) {
            lines.add(pad(book.describe(), WIDTH) + "|");
        }
        for (Magazine magazine : magazines) {
            lines.add(pad(magazine.describe(), WIDTH) + "|");
        }
        return lines;
    }

    /** Pads with dots; shadows the statically imported {@code Strings.pad}. */
    private String pad(String text, int width) {
        StringBuilder sb = new StringBuilder(text);
        while (sb.length() < width) {
            sb.append('.');
        }
        return sb.toString();
    }

    /** Summary such as {@code Catalog: 2 books, 1 magazines}. */
    public String describe() {
        return String.format("%s: %d books, %d magazines", title("catalog"), books.size(), magazines.size());
    }
}
