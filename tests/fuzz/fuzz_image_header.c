/* libFuzzer driver for the image header reader: any bytes, read within their length, and a
 * header read is one whose verdict and decoded size can be worked out. */
#include <stdint.h>
#include <stdlib.h>

#include "media/image_header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes, so a read past the end is ASan's to see. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    for (size_t i = 0; i < size; i++)
        copy[i] = data[i];
    struct media_image_header h;
    if (!media_image_header(copy, size, &h)) {
        if (!h.width || !h.height || !h.bands || h.bands > 4 || !h.sample_bytes ||
            h.sample_bytes > 2)
            abort();
        if (media_image_thumb_verdict(&h) == MEDIA_THUMB_OK &&
            (uint64_t)h.width * h.height > MEDIA_PIXELS_MAX)
            abort();
        (void)media_image_decoded_bytes(&h);
    }
    free(copy);
    return 0;
}
