using System.Collections.Generic;

namespace Shop.Models;

/// <summary>Several items sold as one.</summary>
public class Bundle : Item
{
    private readonly List<Item> _parts;

    public Bundle(string name, List<Item> parts) : base(name, 0)
    {
        _parts = parts;
    }

    // The same name as Item.Describe, on another type.
    public override string Describe()
    {
        return "bundle of " + Count(_parts.Count) + ": " + base.Describe();
    }

    // Counts down, recursively.
    public int Count(int n)
    {
        if (n <= 0)
        {
            return 0;
        }
        return 1 + Count(n - 1);
    }

    public Item First() => _parts[0];
}
