package clock

// Embed the zone database so Asia/Manila resolves on minimal images.
import _ "time/tzdata"
