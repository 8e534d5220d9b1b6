using Shop.Util;

namespace Shop.Models
{
    /// <summary>Something that can describe itself.</summary>
    public interface IDescribable
    {
        string Describe();
    }

    /// <summary>Something for sale.</summary>
    public class Item : IDescribable
    {
        public string Name { get; }
        protected readonly double Unit;

        public Item(string name, double unit)
        {
            Name = name;
            Unit = unit;
        }

        /// <summary>One line about the item.</summary>
        public virtual string Describe()
        {
            return string.Format("{0} at {1}", Name.Trim(), Total());
        }

        // The price with tax.
        public double Total()
        {
            return Money.Price(Unit, 1);
        }
    }
}
