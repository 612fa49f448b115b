package catalog

import (
	"context"
	"strings"
	"time"
	"unicode"
)

// Well-known categories of the seeded taxonomy, for tests and sandbox data
// in other packages. Ids are stable: new categories take new numbers.
const (
	// ElectronicsCategoryID is a root category.
	ElectronicsCategoryID = "100001"
	// MobilePhonesCategoryID (Mobile Phones & Gadgets) is a parent category:
	// products are rejected there.
	MobilePhonesCategoryID = "100002"
	// SmartphonesCategoryID is a leaf with mandatory Brand (inherited) and
	// Storage capacity.
	SmartphonesCategoryID = "100003"
	// RetiredCategoryID (Feature Phones) is an inactive leaf: not listed, and
	// products are rejected there.
	RetiredCategoryID = "100004"
	// DressesCategoryID is a leaf with a mandatory MULTIVALUE size (inherited
	// from Women's Clothing).
	DressesCategoryID = "100025"
	// CookwareCategoryID is a leaf whose only mandatory attribute is its
	// Material (SELECT).
	CookwareCategoryID = "100046"
	// CoffeeCategoryID is a leaf with mandatory Brand and Expiry date
	// (inherited from Groceries).
	CoffeeCategoryID = "100081"
)

// maxCategoryIDLen bounds category ids: decimal numbers, six digits today.
const maxCategoryIDLen = 18

// validCategoryID reports whether id has the form of a category id: a
// decimal number, as every category of the taxonomy has (ids are stable and
// new categories take new numbers). Anything else names no category, so it
// is answered without a query.
func validCategoryID(id string) bool {
	if id == "" || len(id) > maxCategoryIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// Attribute ids of the well-known categories. An attribute id is its
// category's id and a stable slug.
const (
	// AttrElectronicsBrand is TEXT, mandatory, inherited by every
	// Electronics leaf.
	AttrElectronicsBrand = "100001-brand"
	// AttrElectronicsWarrantyMonths is NUMBER (months), optional.
	AttrElectronicsWarrantyMonths = "100001-warranty-period"
	// AttrElectronicsWarrantyType is SELECT, optional.
	AttrElectronicsWarrantyType = "100001-warranty-type"
	// AttrSmartphoneStorage is SELECT, mandatory.
	AttrSmartphoneStorage = "100003-storage-capacity"
	// AttrSmartphoneColour is SELECT, optional.
	AttrSmartphoneColour = "100003-colour"
	// AttrSmartphoneNetwork is MULTIVALUE, optional.
	AttrSmartphoneNetwork = "100003-network"
	// AttrSmartphoneDualSIM is BOOLEAN, optional.
	AttrSmartphoneDualSIM = "100003-dual-sim"
	// AttrWomenSize is MULTIVALUE, mandatory for every Women's Clothing leaf.
	AttrWomenSize = "100024-size"
	// AttrCookwareMaterial is SELECT, mandatory.
	AttrCookwareMaterial = "100046-material"
	// AttrCookwareInduction is BOOLEAN, optional.
	AttrCookwareInduction = "100046-induction-compatible"
	// AttrGroceriesBrand is TEXT, mandatory for every Groceries leaf.
	AttrGroceriesBrand = "100079-brand"
	// AttrGroceriesExpiry is DATE, mandatory for every Groceries leaf.
	AttrGroceriesExpiry = "100079-expiry-date"
)

// SeedCategories writes the marketplace's category tree and attributes when
// the store has no category yet; on a store that has some it changes
// nothing, so it is safe to run on every start of the dev and sandbox roles.
func SeedCategories(ctx context.Context, store Store) error {
	cats, attrs := SeedTaxonomy()
	_, err := store.InsertTaxonomy(ctx, cats, attrs)
	return err
}

// seedCreatedAt is fixed so a seeded tree is identical wherever it is seeded.
var seedCreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// SeedTaxonomy returns the seeded tree flattened in pre-order (parents before
// children) with positions 10, 20, ... (gaps leave room to insert later), and
// the attributes of every category.
func SeedTaxonomy() ([]Category, []Attribute) {
	var cats []Category
	var attrs []Attribute
	var walk func(n seedNode, parent string)
	walk = func(n seedNode, parent string) {
		cats = append(cats, Category{
			ID:          n.id,
			Name:        n.name,
			Handle:      handleOf(n.name),
			Description: n.desc,
			ParentID:    parent,
			Active:      !n.retired,
			Position:    (len(cats) + 1) * 10,
			CreatedAt:   seedCreatedAt,
		})
		for i, a := range n.attrs {
			attrs = append(attrs, Attribute{
				ID:            n.id + "-" + a.slug,
				CategoryID:    n.id,
				Name:          a.name,
				InputType:     a.typ,
				Mandatory:     a.mandatory,
				AllowedValues: a.values,
				Unit:          a.unit,
				Position:      i,
			})
		}
		for _, c := range n.children {
			walk(c, n.id)
		}
	}
	for _, root := range seedTree {
		walk(root, "")
	}
	return cats, attrs
}

// handleOf makes a URL-safe handle from a name: "Sandals & Slippers" →
// "sandals-and-slippers".
func handleOf(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "&", " and ")
	var b strings.Builder
	dash := false
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case r == '\'':
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

type seedNode struct {
	id, name, desc string
	retired        bool
	attrs          []seedAttr
	children       []seedNode
}

type seedAttr struct {
	slug, name string
	typ        InputType
	mandatory  bool
	values     []string
	unit       string
}

const (
	req = true
	opt = false
)

func branch(id, name, desc string, attrs []seedAttr, children ...seedNode) seedNode {
	return seedNode{id: id, name: name, desc: desc, attrs: attrs, children: children}
}

func leaf(id, name string, attrs ...seedAttr) seedNode {
	return seedNode{id: id, name: name, attrs: attrs}
}

func described(desc string, n seedNode) seedNode {
	n.desc = desc
	return n
}

func retired(n seedNode) seedNode {
	n.retired = true
	return n
}

func attrs(a ...seedAttr) []seedAttr { return a }

func text(slug, name string, mandatory bool) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputText, mandatory: mandatory}
}

func number(slug, name, unit string, mandatory bool) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputNumber, mandatory: mandatory, unit: unit}
}

func boolean(slug, name string) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputBoolean}
}

func date(slug, name string, mandatory bool) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputDate, mandatory: mandatory}
}

func choice(slug, name string, mandatory bool, values ...string) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputSelect, mandatory: mandatory, values: values}
}

func multi(slug, name string, mandatory bool, values ...string) seedAttr {
	return seedAttr{slug: slug, name: name, typ: InputMultivalue, mandatory: mandatory, values: values}
}

var (
	colours      = []string{"Black", "White", "Silver", "Gold", "Grey", "Blue", "Red", "Green", "Pink", "Purple", "Yellow", "Brown", "Beige", "Multicolour"}
	phoneColours = []string{"Black", "White", "Silver", "Gold", "Blue", "Green", "Purple", "Red"}
	storageSizes = []string{"32GB", "64GB", "128GB", "256GB", "512GB", "1TB"}
	ramSizes     = []string{"2GB", "3GB", "4GB", "6GB", "8GB", "12GB", "16GB", "32GB"}
	womenSizes   = []string{"XS", "S", "M", "L", "XL", "XXL", "Free Size"}
	menSizes     = []string{"S", "M", "L", "XL", "XXL", "3XL"}
	shoeSizesEU  = []string{"35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"}
	ageRanges    = []string{"0-6 months", "6-12 months", "1-2 years", "3-5 years", "6-8 years", "9-12 years", "13+ years"}
	skinTypes    = []string{"All skin types", "Oily", "Dry", "Combination", "Sensitive", "Acne-prone"}
)

// seedTree is the marketplace taxonomy: roots, their sections, and the leaf
// categories products are listed in.
var seedTree = []seedNode{
	branch("100001", "Electronics", "Phones, computers, audio and cameras.",
		attrs(
			text("brand", "Brand", req),
			number("warranty-period", "Warranty period", "months", opt),
			choice("warranty-type", "Warranty type", opt, "Local supplier warranty", "Local manufacturer warranty", "International manufacturer warranty", "No warranty"),
		),
		branch("100002", "Mobile Phones & Gadgets", "Smartphones, tablets, wearables and their accessories.", nil,
			described("Android and iOS smartphones, brand-new and sealed.", leaf("100003", "Smartphones",
				choice("storage-capacity", "Storage capacity", req, storageSizes...),
				choice("ram", "RAM", opt, ramSizes...),
				choice("colour", "Colour", opt, phoneColours...),
				multi("network", "Network", opt, "2G", "3G", "4G LTE", "5G"),
				boolean("dual-sim", "Dual SIM"),
			)),
			retired(leaf("100004", "Feature Phones")),
			leaf("100005", "Tablets",
				choice("storage-capacity", "Storage capacity", req, storageSizes...),
				number("screen-size", "Screen size", "inches", opt),
				choice("connectivity", "Connectivity", opt, "Wi-Fi", "Wi-Fi + Cellular"),
			),
			leaf("100006", "Smartwatches & Fitness Trackers",
				multi("compatible-os", "Compatible OS", opt, "Android", "iOS", "HarmonyOS"),
				boolean("water-resistant", "Water resistant"),
				choice("strap-material", "Strap material", opt, "Silicone", "Leather", "Metal", "Nylon"),
			),
			leaf("100007", "Phone Cases & Covers",
				text("compatible-model", "Compatible model", req),
				choice("material", "Material", opt, "Silicone", "TPU", "Polycarbonate", "Leather", "Aramid fibre"),
			),
			leaf("100008", "Power Banks & Chargers",
				number("capacity", "Capacity", "mAh", req),
				boolean("fast-charging", "Fast charging"),
				multi("output-ports", "Output ports", opt, "USB-A", "USB-C", "Lightning", "Wireless"),
			),
		),
		branch("100009", "Computers & Laptops", "", nil,
			leaf("100010", "Laptops",
				choice("processor", "Processor", opt, "Intel Core i3", "Intel Core i5", "Intel Core i7", "Intel Core i9", "AMD Ryzen 3", "AMD Ryzen 5", "AMD Ryzen 7", "AMD Ryzen 9", "Apple M-series"),
				choice("ram", "RAM", req, ramSizes...),
				choice("storage", "Storage", opt, "128GB SSD", "256GB SSD", "512GB SSD", "1TB SSD", "2TB SSD", "1TB HDD"),
				number("screen-size", "Screen size", "inches", opt),
				choice("operating-system", "Operating system", opt, "Windows", "macOS", "ChromeOS", "Linux", "No OS"),
			),
			leaf("100011", "Desktop Computers",
				choice("form-factor", "Form factor", opt, "Tower", "Mini PC", "All-in-one"),
			),
			leaf("100012", "Monitors",
				number("screen-size", "Screen size", "inches", req),
				choice("resolution", "Resolution", opt, "HD", "Full HD", "QHD", "4K UHD"),
				number("refresh-rate", "Refresh rate", "Hz", opt),
			),
			leaf("100013", "Keyboards & Mice",
				choice("connectivity", "Connectivity", opt, "Wired", "Wireless 2.4GHz", "Bluetooth"),
			),
			leaf("100014", "Storage & Flash Drives",
				choice("capacity", "Capacity", req, "16GB", "32GB", "64GB", "128GB", "256GB", "512GB", "1TB", "2TB", "4TB"),
			),
		),
		branch("100015", "Audio", "", nil,
			leaf("100016", "Earphones & Headphones",
				choice("connectivity", "Connectivity", req, "Wired", "Bluetooth", "True wireless"),
				boolean("noise-cancelling", "Active noise cancelling"),
				choice("water-resistance", "Water resistance rating", opt, "None", "IPX4", "IPX5", "IPX7"),
			),
			leaf("100017", "Speakers",
				boolean("waterproof", "Waterproof"),
				number("battery-life", "Battery life", "hours", opt),
			),
			leaf("100018", "Microphones"),
		),
		branch("100019", "Cameras & Drones", "", nil,
			leaf("100020", "Digital Cameras",
				number("megapixels", "Sensor resolution", "MP", opt),
				choice("lens-mount", "Lens mount", opt, "Canon RF", "Canon EF", "Nikon Z", "Sony E", "Fujifilm X", "Micro Four Thirds", "Fixed lens"),
			),
			leaf("100021", "Action Cameras",
				boolean("waterproof", "Waterproof"),
				choice("video-resolution", "Max video resolution", opt, "1080p", "2.7K", "4K", "5.3K"),
			),
			leaf("100022", "Drones",
				number("flight-time", "Max flight time", "minutes", opt),
				choice("camera-resolution", "Camera resolution", opt, "No camera", "1080p", "2.7K", "4K"),
			),
		),
	),
	branch("100023", "Fashion", "Clothing, shoes and accessories for women and men.",
		attrs(text("brand", "Brand", opt)),
		branch("100024", "Women's Clothing", "",
			attrs(
				multi("size", "Size", req, womenSizes...),
				choice("colour", "Colour", opt, colours...),
			),
			described("Casual, office and party dresses.", leaf("100025", "Dresses",
				choice("dress-length", "Dress length", opt, "Mini", "Knee length", "Midi", "Maxi"),
				choice("sleeve-length", "Sleeve length", opt, "Sleeveless", "Short sleeve", "3/4 sleeve", "Long sleeve"),
				multi("occasion", "Occasion", opt, "Casual", "Office", "Party", "Beach", "Formal"),
			)),
			leaf("100026", "Tops & Blouses",
				choice("sleeve-length", "Sleeve length", opt, "Sleeveless", "Short sleeve", "3/4 sleeve", "Long sleeve"),
			),
			leaf("100027", "Pants & Leggings",
				choice("fit", "Fit", opt, "Skinny", "Straight", "Wide leg", "Relaxed"),
			),
			leaf("100028", "Skirts"),
			described("Filipiniana dresses, terno and baro't saya.", leaf("100029", "Filipiniana",
				choice("fabric", "Fabric", opt, "Piña", "Jusi", "Abaca", "Cotton", "Polyester"),
			)),
		),
		branch("100030", "Men's Clothing", "",
			attrs(
				multi("size", "Size", req, menSizes...),
				choice("colour", "Colour", opt, colours...),
			),
			leaf("100031", "T-Shirts",
				choice("fabric", "Fabric", opt, "Cotton", "Cotton blend", "Polyester", "Dri-fit"),
				choice("neckline", "Neckline", opt, "Crew neck", "V-neck", "Henley"),
			),
			leaf("100032", "Polo Shirts"),
			leaf("100033", "Jeans",
				choice("fit", "Fit", opt, "Skinny", "Slim", "Straight", "Relaxed"),
			),
			described("Formal barong for weddings and state occasions.", leaf("100034", "Barong Tagalog",
				choice("fabric", "Fabric", opt, "Piña", "Jusi", "Organza", "Cocoon"),
			)),
			leaf("100035", "Shorts"),
		),
		branch("100036", "Shoes", "",
			attrs(
				multi("size", "Size (EU)", req, shoeSizesEU...),
				choice("colour", "Colour", opt, colours...),
			),
			leaf("100037", "Sneakers"),
			leaf("100038", "Sandals & Slippers"),
			leaf("100039", "Formal Shoes"),
		),
		branch("100040", "Bags & Accessories", "",
			attrs(choice("colour", "Colour", opt, colours...)),
			leaf("100041", "Backpacks",
				boolean("laptop-compartment", "Laptop compartment"),
				number("capacity", "Capacity", "litres", opt),
			),
			leaf("100042", "Handbags",
				choice("material", "Material", opt, "Genuine leather", "Faux leather", "Canvas", "Nylon", "Rattan"),
			),
			leaf("100043", "Watches",
				boolean("water-resistant", "Water resistant"),
				choice("movement", "Movement", opt, "Quartz", "Automatic", "Mechanical", "Digital"),
			),
		),
	),
	branch("100044", "Home & Living", "Kitchen, bedding, furniture and home improvement.",
		attrs(text("brand", "Brand", opt)),
		branch("100045", "Kitchen & Dining", "", nil,
			described("Pots, pans, kawali and sets.", leaf("100046", "Cookware",
				choice("material", "Material", req, "Stainless steel", "Cast iron", "Aluminium", "Non-stick", "Ceramic", "Clay"),
				boolean("induction-compatible", "Induction compatible"),
				number("pieces", "Pieces in set", "pcs", opt),
			)),
			leaf("100047", "Kitchen Appliances",
				number("power", "Power", "W", opt),
				choice("plug", "Plug and voltage", req, "220V Type A/B", "220V Type C", "110V"),
				number("warranty-period", "Warranty period", "months", opt),
			),
			leaf("100048", "Tableware & Drinkware",
				choice("material", "Material", opt, "Ceramic", "Glass", "Stainless steel", "Melamine", "Bamboo"),
				boolean("microwave-safe", "Microwave safe"),
			),
			leaf("100049", "Food Storage",
				boolean("bpa-free", "BPA free"),
				number("capacity", "Capacity", "ml", opt),
			),
		),
		branch("100050", "Bedding", "", nil,
			leaf("100051", "Bed Sheets",
				choice("bed-size", "Bed size", req, "Single", "Double", "Queen", "King"),
				number("thread-count", "Thread count", "", opt),
			),
			leaf("100052", "Pillows"),
			leaf("100053", "Blankets & Comforters"),
		),
		branch("100054", "Furniture", "", nil,
			leaf("100055", "Sofas",
				number("seats", "Seats", "", opt),
				choice("upholstery", "Upholstery", opt, "Fabric", "Leather", "Faux leather", "Rattan"),
			),
			leaf("100056", "Tables & Desks",
				choice("material", "Material", opt, "Solid wood", "Engineered wood", "Metal", "Glass"),
				boolean("assembly-required", "Assembly required"),
			),
			leaf("100057", "Storage & Organisation"),
		),
		branch("100058", "Home Improvement", "", nil,
			leaf("100059", "Lighting",
				choice("bulb-type", "Bulb type", opt, "LED", "CFL", "Halogen", "Incandescent"),
				number("wattage", "Wattage", "W", opt),
			),
			leaf("100060", "Tools",
				choice("power-source", "Power source", opt, "Corded electric", "Cordless", "Manual"),
			),
			leaf("100061", "Electric Fans",
				choice("fan-type", "Fan type", req, "Desk", "Stand", "Wall", "Ceiling", "Tower"),
				number("blade-size", "Blade size", "inches", opt),
				boolean("remote-control", "Remote control"),
			),
		),
	),
	branch("100062", "Health & Beauty", "Skincare, makeup, personal care and supplements.",
		attrs(
			text("brand", "Brand", req),
			text("fda-registration", "FDA registration number", opt),
			date("expiry-date", "Expiry date", opt),
		),
		branch("100063", "Skincare", "",
			attrs(multi("skin-type", "Skin type", opt, skinTypes...)),
			leaf("100064", "Moisturizers",
				number("volume", "Volume", "ml", req),
				number("spf", "SPF", "", opt),
			),
			leaf("100065", "Sunscreen",
				number("spf", "SPF", "", req),
				boolean("water-resistant", "Water resistant"),
			),
			leaf("100066", "Facial Cleansers"),
			leaf("100067", "Serums",
				multi("key-ingredients", "Key ingredients", opt, "Niacinamide", "Hyaluronic acid", "Vitamin C", "Retinol", "Salicylic acid", "Centella asiatica"),
			),
		),
		branch("100068", "Makeup", "", nil,
			leaf("100069", "Lipstick",
				text("shade", "Shade", req),
				choice("finish", "Finish", opt, "Matte", "Satin", "Glossy", "Tint"),
			),
			leaf("100070", "Foundation",
				text("shade", "Shade", req),
				choice("coverage", "Coverage", opt, "Sheer", "Medium", "Full"),
			),
			leaf("100071", "Eye Makeup"),
		),
		branch("100072", "Personal Care", "", nil,
			leaf("100073", "Shampoo & Conditioner",
				multi("hair-type", "Hair type", opt, "All hair types", "Dry", "Oily", "Colour-treated", "Curly"),
				number("volume", "Volume", "ml", opt),
			),
			leaf("100074", "Oral Care"),
			leaf("100075", "Deodorants"),
		),
		branch("100076", "Vitamins & Supplements", "", nil,
			leaf("100077", "Multivitamins",
				choice("form", "Form", req, "Tablet", "Capsule", "Softgel", "Gummy", "Powder", "Syrup"),
				number("count", "Count", "pcs", opt),
			),
			leaf("100078", "Vitamin C"),
		),
	),
	branch("100079", "Groceries", "Food and drinks from local and imported brands.",
		attrs(
			text("brand", "Brand", req),
			date("expiry-date", "Expiry date", req),
			number("net-weight", "Net weight", "g", opt),
		),
		branch("100080", "Beverages", "", nil,
			described("Local beans from Benguet, Sagada and Batangas, and imported coffee.", leaf("100081", "Coffee",
				choice("roast", "Roast", opt, "Light", "Medium", "Dark"),
				choice("form", "Form", opt, "Whole bean", "Ground", "Instant", "3-in-1", "Pods"),
				choice("origin", "Origin", opt, "Benguet", "Sagada", "Batangas (Barako)", "Mt. Apo", "Imported"),
			)),
			leaf("100082", "Tea"),
			leaf("100083", "Juices"),
			leaf("100084", "Soft Drinks"),
		),
		branch("100085", "Snacks", "", nil,
			leaf("100086", "Chips & Crisps"),
			leaf("100087", "Biscuits & Cookies"),
			leaf("100088", "Dried Mangoes & Delicacies",
				choice("region", "Region of origin", opt, "Cebu", "Bohol", "Pampanga", "Ilocos", "Davao", "Iloilo"),
			),
		),
		branch("100089", "Pantry Staples", "", nil,
			leaf("100090", "Rice",
				choice("variety", "Variety", opt, "Jasmine", "Dinorado", "Sinandomeng", "Brown", "Black", "Glutinous (malagkit)"),
			),
			leaf("100091", "Noodles & Pasta"),
			leaf("100092", "Condiments & Sauces",
				boolean("halal", "Halal certified"),
			),
			leaf("100093", "Canned Goods"),
		),
	),
	branch("100094", "Babies & Kids", "Diapering, feeding and toys.",
		attrs(
			text("brand", "Brand", opt),
			multi("age-range", "Age range", opt, ageRanges...),
		),
		branch("100095", "Diapering", "", nil,
			leaf("100096", "Disposable Diapers",
				choice("diaper-size", "Diaper size", req, "Newborn", "S", "M", "L", "XL", "XXL"),
				number("count", "Count", "pcs", opt),
			),
			leaf("100097", "Baby Wipes",
				boolean("fragrance-free", "Fragrance free"),
			),
		),
		branch("100098", "Feeding", "", nil,
			leaf("100099", "Milk Formula",
				choice("stage", "Stage", req, "Stage 1 (0-6 months)", "Stage 2 (6-12 months)", "Stage 3 (1-3 years)", "Stage 4 (3+ years)"),
				date("expiry-date", "Expiry date", req),
				number("net-weight", "Net weight", "g", opt),
			),
			leaf("100100", "Feeding Bottles",
				boolean("bpa-free", "BPA free"),
				number("capacity", "Capacity", "ml", opt),
			),
		),
		branch("100101", "Toys", "", nil,
			leaf("100102", "Educational Toys"),
			leaf("100103", "Dolls & Stuffed Toys"),
			leaf("100104", "Building Blocks",
				number("piece-count", "Piece count", "pcs", opt),
			),
		),
	),
	branch("100105", "Sports & Outdoors", "Fitness, outdoor recreation, team sports and cycling.",
		attrs(text("brand", "Brand", opt)),
		branch("100106", "Exercise & Fitness", "", nil,
			leaf("100107", "Yoga Mats",
				number("thickness", "Thickness", "mm", opt),
				choice("material", "Material", opt, "TPE", "PVC", "NBR", "Natural rubber", "Cork"),
			),
			leaf("100108", "Dumbbells & Weights",
				number("weight", "Weight per piece", "kg", req),
			),
			leaf("100109", "Resistance Bands"),
		),
		branch("100110", "Outdoor Recreation", "", nil,
			leaf("100111", "Camping Tents",
				number("capacity", "Capacity", "persons", req),
				boolean("waterproof", "Waterproof"),
			),
			leaf("100112", "Water Bottles & Hydration",
				number("capacity", "Capacity", "ml", opt),
				boolean("insulated", "Insulated"),
			),
			leaf("100113", "Fishing"),
		),
		branch("100114", "Team Sports", "", nil,
			leaf("100115", "Basketball",
				choice("ball-size", "Ball size", opt, "Size 5", "Size 6", "Size 7"),
				choice("court", "Court", opt, "Indoor", "Outdoor", "Indoor/Outdoor"),
			),
			leaf("100116", "Volleyball"),
			leaf("100117", "Badminton"),
		),
		branch("100118", "Cycling", "", nil,
			leaf("100119", "Bicycles",
				choice("wheel-size", "Wheel size", req, "16\"", "20\"", "24\"", "26\"", "27.5\"", "29\"", "700c"),
				choice("frame-material", "Frame material", opt, "Steel", "Aluminium alloy", "Carbon fibre"),
			),
			leaf("100120", "Cycling Accessories"),
		),
	),
	branch("100121", "Automotive", "Car and motorcycle parts, accessories and fluids.",
		attrs(
			text("brand", "Brand", req),
			text("vehicle-compatibility", "Vehicle compatibility", opt),
		),
		branch("100122", "Car Accessories", "", nil,
			leaf("100123", "Car Electronics",
				choice("power-source", "Power source", opt, "12V socket", "USB", "Hardwired", "Battery"),
			),
			leaf("100124", "Car Care"),
			leaf("100125", "Seat Covers"),
		),
		branch("100126", "Motorcycle Parts & Accessories", "", nil,
			described("Helmets with ICC, DOT or ECE certification.", leaf("100127", "Motorcycle Helmets",
				choice("helmet-type", "Helmet type", req, "Full face", "Modular", "Open face", "Half face"),
				multi("certification", "Certification", opt, "ICC", "DOT", "ECE", "SNI"),
				choice("size", "Size", opt, "S", "M", "L", "XL"),
			)),
			leaf("100128", "Motorcycle Tires",
				text("tire-size", "Tire size", req),
				boolean("tubeless", "Tubeless"),
			),
			leaf("100129", "Motorcycle Lights"),
		),
		branch("100130", "Oils & Fluids", "", nil,
			leaf("100131", "Engine Oil",
				choice("viscosity", "Viscosity", req, "0W-20", "5W-30", "10W-30", "10W-40", "15W-40", "20W-50"),
				choice("oil-type", "Oil type", opt, "Mineral", "Semi-synthetic", "Fully synthetic"),
				number("volume", "Volume", "litres", opt),
			),
			leaf("100132", "Coolants"),
		),
	),
	branch("100133", "Pet Supplies", "Food, toys and care for dogs and cats.",
		attrs(text("brand", "Brand", req)),
		branch("100134", "Dog Supplies", "", nil,
			leaf("100135", "Dog Food",
				choice("life-stage", "Life stage", opt, "Puppy", "Adult", "Senior", "All life stages"),
				date("expiry-date", "Expiry date", req),
				number("net-weight", "Net weight", "kg", opt),
			),
			leaf("100136", "Dog Toys"),
		),
		branch("100137", "Cat Supplies", "", nil,
			leaf("100138", "Cat Food",
				date("expiry-date", "Expiry date", req),
				choice("food-type", "Food type", opt, "Dry", "Wet", "Treats"),
			),
			leaf("100139", "Cat Litter",
				choice("litter-type", "Litter type", opt, "Clumping clay", "Silica", "Tofu", "Pine"),
			),
		),
	),
	branch("100140", "Books & Stationery", "Books in English and Filipino, school and office supplies.", nil,
		branch("100141", "Books", "",
			attrs(
				text("author", "Author", req),
				choice("language", "Language", req, "English", "Filipino", "Cebuano", "Ilocano", "Hiligaynon", "Other"),
				text("isbn", "ISBN", opt),
				date("publication-date", "Publication date", opt),
			),
			leaf("100142", "Fiction"),
			leaf("100143", "Non-fiction"),
			leaf("100144", "Children's Books"),
		),
		branch("100145", "School & Office Supplies", "", nil,
			leaf("100146", "Notebooks & Paper",
				choice("paper-size", "Paper size", opt, "A4", "A5", "Letter", "Legal", "Short bond"),
			),
			leaf("100147", "Writing Instruments",
				multi("ink-colour", "Ink colour", opt, "Black", "Blue", "Red", "Green"),
			),
		),
	),
}
