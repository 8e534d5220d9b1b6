using System;
using System.Collections.Generic;
using Shop.Models;
using Cash = Shop.Util.Money;
using static Shop.Util.Format;

namespace Shop.App
{
    /// <summary>Builds and prints a sample report.</summary>
    public class Report
    {
        private readonly IDescribable _first;

        public Report(IDescribable first)
        {
            _first = first;
        }

        // Hides Format.Line, imported with using static.
        public string Line(string text)
        {
            return "- " + text;
        }

        // Factorial, recursively.
        public static int Fact(int n)
        {
            return n <= 1 ? 1 : n * Fact(n - 1);
        }

        public string Render(Bundle kit)
        {
            var pen = new Item("pen", 1.5);
            Item first = kit.First();
            string title = Pad("report", 10);
            return Line(pen.Describe()) + kit.Describe() + first.Total() + _first.Describe() + title;
        }

        public static void Main(string[] args)
        {
            var parts = new List<Item> { new Item("pen", 1.5) };
            var kit = new Bundle("kit", parts);
            var report = new Report(kit);
            Console.WriteLine(report?.Render(kit));
            Console.WriteLine(Fact(5) + Cash.Price(2.0, 3));
            Console.WriteLine(Shop.Util.Format.Line("end"));
        }
    }
}
