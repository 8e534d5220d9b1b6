import Shop

/// One line for anything describable, seen from main.swift without an import.
func line(_ thing: Describable) -> String {
    return "- " + thing.describe()
}
