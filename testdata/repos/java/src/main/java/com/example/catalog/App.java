package com.example.catalog;

import com.example.catalog.model.Book;
import com.example.catalog.model.Book.Genre;
import com.example.catalog.model.Magazine;
import com.example.catalog.service.Catalog;
import com.example.catalog.util.Strings;
import java.util.List;

/** Command-line demo that fills a catalog and prints it. */
public class App {
    /** Books loaded at start-up. */
    static final List<Book> SEED = List.of(
            new Book("978-0441013593", "Dune", 412, Genre.FANTASY),
            new Book("978-0553380163", "A Brief History of Time", 212, Genre.PHYSICS));

    /** Fills a catalog from {@link #SEED} and prints listings and summaries. */
    public static void main(String[] args) {
        Catalog catalog = new Catalog();
        for (Book book : SEED) {
            catalog.addBook(book);
        }
        Magazine magazine = new Magazine("Byte", 12);
        catalog.addMagazine(magazine);
        for (String line : catalog.listing()) {
            System.out.println(line);
        }
        Book first = SEED.get(0);
        System.out.println(Strings.wrap(first.describe(), 20));
        System.out.println(magazine);
        System.out.println(catalog.describe());
        System.out.println(catalog.byGenre(Genre.FICTION, true).size());
        System.out.println(Genre.PHYSICS.path());
    }
}
